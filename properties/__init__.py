"""properties: the invariant catalogue of hearts-ref, proved with Z3 and tested with Hypothesis."""
