"""Every work function the window runs off the GUI thread, as plain Python: a trace request computed
(tracing), the models built so far (model_cache), the Interventions panel's lens, attribution and sweep
(interventions), a generation (generating), a training run (training), the Model view's maps (model_view) and
a worksheet's trace (worksheet). Each is a ``work(report, cancel)`` (report.py) that the window's one job
runner (explorer/ui/background/jobs.py) runs on a thread of its own; the CLI and the tests call the same functions
without Qt. Torch loads when a work runs, never when one of these modules is imported.
"""
