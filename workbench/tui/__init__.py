"""The Textual workbench: it renders a `workbench.session.Session` and posts what the user does."""
