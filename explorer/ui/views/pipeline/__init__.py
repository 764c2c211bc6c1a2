"""The pipeline across the top: stage boxes, arrows and the wrapping layout."""
