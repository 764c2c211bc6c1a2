"""The Compare view (issue 40): a second run beside the current one, three linked maps and where they differ."""
