"""The application layer: what the table, the CLI and the exports share, free of Textual.

It sits between the interfaces (``ui``, ``cli``, ``export``) and the core: asking the game
master for table dice and retrying, making an expedition, preferences, and the bookkeeping of
a replay. Nothing here imports Textual or Rich; see ``docs/design.md`` for the layers.
"""
