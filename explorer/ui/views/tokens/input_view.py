"""The text box (each line one sentence of the batch) and the tokens of each sentence as chips.

Typing re-traces after a short pause (the worker also drops stale requests). A chip click selects that
token in every view; a selection made elsewhere highlights its chip here.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QCursor, QKeySequence, QShortcut, QTextCursor
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QScrollArea, QToolTip, QVBoxLayout

from explorer.analysis.token_text import visible
from explorer.present.token_parts import readable_tokens
from explorer.session.token_edit import edit_token, editable_text, token_span
from explorer.ui.views.base import View
from explorer.ui.views.tokens.language_hint import LanguageHint
from explorer.ui.views.tokens.token_chips import Chip, ChipCanvas
from explorer.ui.views.tokens.token_editor import TokenEditor
from explorer.ui.words.token_words import chip_tip
from explorer.vocab import MASK_TEXT as MASK

# The edits of one turn of the event loop (a paste, keys delivered together) become one request. Waiting
# longer coalesces nothing a person types (keystrokes come ≥ 30 ms apart; a stale trace is cancelled by the
# worker anyway) and only delays the repaint: 10 ms here were a third of the 30 ms edit→repaint budget.
DEBOUNCE_MS = 0


class InputView(View):
    def __init__(self, state, parent=None) -> None:
        super().__init__(state, parent)
        self.text = QPlainTextEdit()
        self.text.setTabChangesFocus(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.text.setMaximumHeight(self.fontMetrics().lineSpacing() * 4 + 12)
        self._set_box(state.text)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(DEBOUNCE_MS)
        self._debounce.timeout.connect(self._send_text)
        self.text.textChanged.connect(self._debounce.start)

        self.summary = QLabel()
        self.summary.setWordWrap(True)  # a long summary wraps: unwrapped, it widened the whole left column
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.chips = ChipCanvas()
        self.chips.chipClicked.connect(lambda b, i: self.state.select(row=b, token=i))
        self.chips.moveRequested.connect(self._step)
        self._wire_editing()
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setWidget(self.chips)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll.setFrameShape(QScrollArea.Shape.NoFrame)

        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.setSpacing(3)
        lay.addWidget(self.text)
        lay.addWidget(self.summary)
        self.language_hint = LanguageHint(state)  # Japanese on a preset without it: the japanese preset, once
        lay.addWidget(self.language_hint)
        lay.addWidget(self.scroll, 1)

        self.retranslate()  # also shows the chips of a trace that is already there
        state.requestChanged.connect(self._on_request)
        state.traceChanged.connect(self.staggered(self._on_trace))  # 1,000 chips measured: 20 ms, a turn of its own
        state.selectionChanged.connect(self._on_selection)
        # a snapshot's text stays readable and selectable, but typing would re-trace
        state.snapshotChanged.connect(lambda path: self.text.setReadOnly(path is not None))
        self.text.setReadOnly(state.snapshot is not None)

    def retranslate(self) -> None:
        self.text.setPlaceholderText(self.tr("Type a sentence. Each line is one sentence of the batch."))
        self.text.setToolTip(
            self.tr("The text to trace. Each line is one sentence of the batch; edits re-trace after a short pause.")
        )
        self.chips.setToolTip("")  # each chip has its own tooltip
        self.scroll.setToolTip(
            self.tr("The tokens of each sentence with their ids. Click one to select it everywhere (← → step).")
            + "\n"
            + self.tr("Double-click a token to replace or remove it (Delete removes the selected one, Ctrl+Z undoes).")
        )
        if hasattr(self, "language_hint"):
            self.language_hint.retranslate()
        if self.state.trace is not None:
            self._on_trace(self.state.trace)

    # ------------------------------------------------------------------ text → state
    def _send_text(self) -> None:
        self.state.set_text(self.text.toPlainText())

    def flush(self) -> None:
        """Send a pending edit now (tests, and before actions that read the text)."""
        if self._debounce.isActive():
            self._debounce.stop()
            self._send_text()

    def _on_request(self, request) -> None:
        # The text changed elsewhere (a preset's example, an appended token, a restored session). Do not
        # overwrite what the user is still typing: a pending edit wins and will be sent shortly.
        if self._debounce.isActive() or request.text == self.text.toPlainText():
            return
        self._set_box(request.text)

    def _set_box(self, text: str) -> None:
        self.text.blockSignals(True)
        self.text.setPlainText(text)
        self.text.moveCursor(QTextCursor.MoveOperation.End)  # ready to go on typing (or to append a token)
        self.text.blockSignals(False)

    # ------------------------------------------------------------------ editing a token from its chip
    def _wire_editing(self) -> None:
        """Double-click a chip: replace its token (empty: remove it); Delete removes the selected one; Ctrl+Z
        undoes in the text box, whose undo stack holds every edit."""
        self.editor = TokenEditor(self.chips)
        self.editor.committed.connect(self.edit_token)
        self.chips.chipDoubleClicked.connect(self.open_editor)
        self.chips.deleteRequested.connect(
            lambda: (
                self.state.selection.token is not None
                and self.edit_token(self.state.selection.row, self.state.selection.token, "")
            )
        )
        self._undo = QShortcut(QKeySequence(QKeySequence.StandardKey.Undo), self.chips, self.undo)
        self._undo.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        # An encoder (BERT): Ctrl+M masks the selected token, and the output shows what belongs there
        self._mask = QShortcut(QKeySequence("Ctrl+M"), self.chips, self.mask_selected)
        self._mask.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)

    def mask_selected(self) -> bool:
        """Replace the selected token by [MASK] (encoders only: a decoder has no mask token)."""
        trace, sel = self.state.trace, self.state.selection
        if trace is None or not trace.config.mlm_head or sel.token is None:
            return False
        return self.edit_token(sel.row, sel.token, MASK)

    def _span(self, row: int, token: int) -> tuple[int, int] | None:
        trace = self.state.trace
        if trace is None or trace.read_only or row >= trace.B or token >= trace.rows[row].length:
            return None
        r = trace.rows[row]
        return token_span(self.text.toPlainText(), row, r.tokens, token, r.text)

    def open_editor(self, row: int, token: int) -> None:
        if self._span(row, token) is None:
            QToolTip.showText(
                QCursor.pos(),
                self.tr(
                    "This token cannot be edited on its own (a snapshot, or part of a character): edit the text above"
                ),
                self.chips,
            )
            return
        piece = self.state.trace.rows[row].tokens[token]
        self.editor.setToolTip(self.tr("Enter: replace this token (empty: remove it) · Esc: keep it"))
        self.editor.open_at(row, token, self.chips.chip_rect(row, token), editable_text(piece))

    def edit_token(self, row: int, token: int, typed: str) -> bool:
        """Replace (or, with a blank ``typed``, remove) the token's piece in the text box, undoably, and trace."""
        if self._span(row, token) is None:
            return False
        r, kind = self.state.trace.rows[row], self.state.trace.tokenizer_kind
        edit = edit_token(self.text.toPlainText(), row, r.tokens, token, typed, kind, r.text)
        cursor = QTextCursor(self.text.document())
        cursor.setPosition(edit.start)
        cursor.setPosition(edit.end, QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText(edit.insert)  # on the text box's undo stack
        self.flush()  # traced at once
        return True

    def undo(self) -> None:
        self.text.undo()
        self.flush()

    # ------------------------------------------------------------------ trace → chips
    def _on_trace(self, trace) -> None:
        if trace.read_only and not self._debounce.isActive():
            self._set_box("\n".join(r.text for r in trace.rows))  # a snapshot: show the text it was made from
        unknown_tip = self.tr("not in the vocabulary: shown as <unk>")
        tip_template = self.tr("token {i}: {piece!r}, id {id}")
        unknown_count = sum(sum(row.unknown) for row in trace.rows)
        # A long input arrives twice (its first layers, then the rest) and a retrace of an option keeps the
        # tokens: 1,000 chips built and laid out again for nothing stalled the window.
        chips_key = (trace.rows, tip_template, unknown_tip)
        if chips_key != getattr(self, "_chips_key", None):
            self._chips_key = chips_key
            rows = []
            for row in trace.rows:
                chips = []
                shown = readable_tokens(tuple(row.tokens))  # 私(1/3) for a character split over byte tokens
                for i, (piece, read, token_id, unk) in enumerate(zip(row.tokens, shown, row.ids, row.unknown)):
                    head = tip_template.format(i=i, piece=piece if read == piece else f"{read} = {piece}", id=token_id)
                    tip = chip_tip(head, visible(read), int(token_id))  # what ␣ and the id mean (issue 38)
                    if unk:
                        tip += "\n" + unknown_tip
                    chips.append(Chip(visible(read), int(token_id), bool(unk), tip))
                rows.append(chips)
            self.chips.set_rows(rows)
            self._select_mask(trace)
        total = sum(r.length for r in trace.rows)
        summary = self.tr("{n} tokens in {b} sentence(s), C = {c}").format(n=total, b=trace.B, c=trace.C)
        if unknown_count:
            summary += " · " + self.tr("{k} not in the vocabulary (dashed)").format(k=unknown_count)
        self.summary.setText(summary)
        self.language_hint.on_trace(trace)
        self._on_selection(self.state.selection)

    def _select_mask(self, trace) -> None:
        """An encoder's new tokens: select the first [MASK], whose distribution is the one to look at."""
        sel = self.state.selection
        if not trace.config.mlm_head or sel.row >= trace.B:
            return
        tokens = trace.rows[sel.row].tokens
        if MASK in tokens and (sel.token is None or sel.token >= len(tokens) or tokens[sel.token] != MASK):
            self.state.select(token=tokens.index(MASK))

    def _on_selection(self, sel) -> None:
        trace = self.state.trace
        if trace is None or not self.chips.rows() or getattr(self, "_chips_key", (None,))[0] != trace.rows:
            return  # the chips of this trace are not built yet (a long input builds them in a later turn)
        chip = (sel.row, sel.token) if sel.token is not None else None
        key = (sel.row, sel.key) if sel.key is not None else None
        self.chips.set_selected(chip, key)
        # After the scroll area has taken the chips' new height (a posted layout request), not before.
        QTimer.singleShot(0, self._scroll_to_selected)

    def _scroll_to_selected(self) -> None:
        chip, rows = self.chips.selected(), self.chips.rows()
        if chip is not None and chip[0] < len(rows) and chip[1] < len(rows[chip[0]]):
            r = self.chips.chip_rect(*chip)
            self.scroll.ensureVisible(r.center().x(), r.center().y(), 4, r.height())

    def _step(self, step: int) -> None:
        sel, trace = self.state.selection, self.state.trace
        if trace is None:
            return
        length = trace.rows[sel.row].length
        token = 0 if sel.token is None else max(0, min(length - 1, sel.token + step))
        self.state.select(token=token)
