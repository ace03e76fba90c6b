"""The campaign screen, and the app's part in a campaign."""
