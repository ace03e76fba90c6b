"""The full-screen table (Textual): the app and its first screen here, each room below it
(docs/design.md, "The UI, room by room")."""
