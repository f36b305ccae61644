"""What flows back from learners: a report of a problem with a question (the issue form
its link opens), where a reported question is written (``locate``), and which questions
learners' own exports show to be likely flawed (``stats``)."""
