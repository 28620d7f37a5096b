"""Engines that hearts-ref can judge, behind the :class:`hearts_ref.engine.Engine` interface."""
