"""Reading: source bytes to questions and topics."""
