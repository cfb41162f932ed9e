// Placeholder: the shoot session state machine (issue 6).
