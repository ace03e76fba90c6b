"""The modal screens: a question, a list, the table's dialogs, the asking while a command runs,
help, an error."""
