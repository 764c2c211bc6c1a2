"""Training, with no Qt: corpora and algorithmic tasks, the loop, baselines and evaluation.

    corpus = get_corpus("tiny-en")
    result = train(corpus, preset_config("classroom"), TrainSettings(steps=2000), run_dir="runs/en")

``explorer.train.loop`` is written to be driven from a GUI worker thread as well as from the CLI: a
callback receives a ``TrainProgress`` after every step, a ``threading.Event`` cancels between steps, and
``list_checkpoints(run_dir)`` lists the checkpoint folders written so far.
"""
