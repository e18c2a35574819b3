"""Message components (persistent buttons) and modals."""
