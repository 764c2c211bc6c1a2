"""The Interventions panel's tabs: Compare (the list of interventions, KL, moved ranks, the three maps),
Logit lens, Attribution, and Patching (patch from another sentence, and the patching sweep). Each tab draws
numbers computed by explorer.interventions, in the trace worker or on a background job
(explorer/ui/background/jobs.py)."""
