"""sitegen: the generated pages of the hearts-ref documentation site.

Every generated page is built from the repository at build time (``spec/``, the
engine's source, the recorded runs in ``docs/data/``), so the site cannot drift from
the code. ``docs/hooks.py`` hands the pages to mkdocs; nothing here writes into ``docs/``.
"""
