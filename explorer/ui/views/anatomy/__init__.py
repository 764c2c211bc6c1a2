"""The stepper of issue 39: how the selected cell's number is made, step by step, beside the map or on a slide."""
