"""Identity: which question is which, the lock, recovery from published decks."""
