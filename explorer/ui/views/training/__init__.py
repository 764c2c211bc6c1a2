"""The Train panel: the loss curve, the checkpoint timeline and the induction-head readout."""
