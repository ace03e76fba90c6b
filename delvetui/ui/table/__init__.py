"""The table screen and the parts it holds; its messages, its command line and its palette."""
