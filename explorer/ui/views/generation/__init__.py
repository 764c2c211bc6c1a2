"""The Generate panel: its controls, the step's details, tables, cost line and the growing map."""
