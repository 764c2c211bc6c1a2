"""The central view: the selected stage drawn from the trace, its widgets, control bar, hover, the stages that are
not one matrix, the tensor list, the baseline / intervened switch and the context menus that change the
computation."""
