// Placeholder: the capture module is being written (issue 5).
