"""Work off the GUI thread and its timing: the job runner, the trace queue, the one error policy, training, model
loading and the Model view's work followed, one redraw per loop turn, garbage collection on the GUI thread,
PySide6's question after every import answered quickly."""
