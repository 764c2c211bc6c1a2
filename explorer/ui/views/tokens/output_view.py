"""Next token: the top-k of the selected position as bars, the whole C-row table of the note's
"This is a pen ." example, and buttons that append the likeliest (or a sampled) token and trace again.

Probabilities come from the trace (``trace.probs_row``, at the temperature it was traced with); choosing
ids (top-k, argmax, sampling) and joining text are ``explorer.generation.choose``'s job.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDoubleSpinBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from explorer.analysis.token_text import visible
from explorer.generation.choose import append_token, argmax, join_tokens, sample, top_k
from explorer.interventions.compare import kl_divergence, token_moves
from explorer.ui.views.base import View
from explorer.ui.views.tokens import output_anatomy
from explorer.ui.views.tokens.compare_bars import CompareBars, PairedBar
from explorer.ui.views.tokens.topk_bars import TopKBars, fmt_prob
from explorer.ui.words.plain_text import plain_tip

TABLE_TOP = 3  # next-token guesses printed per row of the table
MAX_TABLE_ROWS = 64  # each row is a softmax over the whole vocabulary (50,257 for GPT-2): a long text shows its
# first rows (and says so); the bars cover any position
CONTEXT_TOKENS = 6  # the table's first column shows at most the last few tokens of each prefix


class OutputView(View):
    def __init__(self, state, parent: QWidget | None = None) -> None:
        super().__init__(state, parent)
        self.rng = np.random.default_rng()
        self.kl: float | None = None  # KL(baseline ‖ intervened) of the position shown, while comparing
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        font = self.heading.font()
        font.setBold(True)
        self.heading.setFont(font)
        self.where = QLabel()
        self.where.setWordWrap(True)
        # With interventions: the KL between the two runs' distributions, and both runs' bars.
        self.kl_label = QLabel()
        self.kl_label.setWordWrap(True)
        self.kl_label.hide()
        self.append_best = QPushButton()
        self.append_sampled = QPushButton()
        self.append_best.clicked.connect(lambda: self._append(sampled=False))
        self.append_sampled.clicked.connect(lambda: self._append(sampled=True))
        buttons = QHBoxLayout()
        buttons.addWidget(self.append_best)
        buttons.addWidget(self.append_sampled)

        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.setSpacing(4)
        lay.addWidget(self.heading)
        lay.addWidget(self.where)
        lay.addLayout(self._build_knobs(state))
        lay.addWidget(self.kl_label)
        lay.addWidget(self._build_splitter(), 1)
        lay.addWidget(self.bar_hover)
        lay.addLayout(buttons)

        self._table_for = None  # (trace id, row) the table was filled for
        self.retranslate()
        state.traceChanged.connect(self.when_shown(lambda _t: self._refresh(fill_table=True)))
        state.selectionChanged.connect(self.when_shown(lambda _s: self._refresh()))
        state.requestChanged.connect(self._sync_temperature)
        self._refresh(fill_table=True)

    def _build_knobs(self, state) -> QHBoxLayout:
        self.k_label = QLabel()
        self.k_spin = QSpinBox()
        self.k_spin.setRange(1, 50)
        self.k_spin.setValue(10)
        self.k_spin.valueChanged.connect(lambda _v: self._refresh())
        self.t_label = QLabel()
        self.t_spin = QDoubleSpinBox()
        self.t_spin.setRange(0.05, 20.0)
        self.t_spin.setSingleStep(0.1)
        self.t_spin.setDecimals(2)
        self.t_spin.setKeyboardTracking(False)  # trace again when the number is complete, not per keystroke
        self.t_spin.setValue(state.options.temperature)
        self.t_spin.valueChanged.connect(lambda v: self.state.set_options(temperature=float(v)))
        knobs = QHBoxLayout()
        for w in (self.k_label, self.k_spin, self.t_label, self.t_spin):
            knobs.addWidget(w)
        knobs.addStretch(1)
        return knobs

    def _build_table(self) -> QWidget:
        self.table_title = QLabel()
        self.table_title.setWordWrap(True)
        self.table = QTableWidget()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        # One line per row at a fixed height: ResizeToContents re-measures every row on each cell set,
        # which made a 512-row table take seconds (O(rows²)).
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 6)
        self.table.currentCellChanged.connect(self._row_clicked)
        lower = QWidget()
        lower_lay = QVBoxLayout(lower)
        lower_lay.setContentsMargins(0, 0, 0, 0)
        lower_lay.addWidget(self.table_title)
        lower_lay.addWidget(self.table, 1)
        return lower

    def _build_splitter(self) -> QSplitter:
        """Bars and table share the height through a splitter, each scrolling on its own, so that the dock
        can be short (it often shares the right side with another panel)."""
        self.bars = TopKBars()
        self.bars.howAsked.connect(lambda n: output_anatomy.ask(self, n))  # Ctrl+H on a chosen bar (issue 39)
        self.bars.contextRequested.connect(lambda n, at: output_anatomy.context_menu(self, n, at))
        self.bar_hover = QLabel()  # the hovered bar's probability and its “How is this made?” link
        self.bar_hover.setTextFormat(Qt.TextFormat.RichText)  # a token's text is escaped (output_anatomy)
        self.bar_hover.setWordWrap(True)
        self.bar_hover.linkActivated.connect(lambda _href: output_anatomy.hover_link(self))
        self.bar_hover.hide()
        self.bars.rowHovered.connect(lambda n: output_anatomy.hovered(self, n))
        self.compare_bars = CompareBars()  # shown instead of the bars while interventions are active
        self.compare_bars.hide()
        both = QWidget()
        both_lay = QVBoxLayout(both)
        both_lay.setContentsMargins(0, 0, 0, 0)
        both_lay.setSpacing(0)
        both_lay.addWidget(self.bars)
        both_lay.addWidget(self.compare_bars)
        both_lay.addStretch(1)
        bars_scroll = QScrollArea()
        bars_scroll.setWidget(both)
        bars_scroll.setWidgetResizable(True)
        bars_scroll.setFrameShape(QFrame.Shape.NoFrame)
        bars_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        bars_scroll.setMinimumHeight(3 * self.fontMetrics().height())
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(bars_scroll)
        self.splitter.addWidget(self._build_table())
        self.splitter.setChildrenCollapsible(False)
        self._user_split = False  # once the user drags the splitter, keep their choice
        self.splitter.splitterMoved.connect(lambda *_: setattr(self, "_user_split", True))
        self.splitter.installEventFilter(self)
        return self.splitter

    # ------------------------------------------------------------------ texts
    def retranslate(self) -> None:
        self.k_label.setText(self.tr("top k"))
        self.k_spin.setToolTip(self.tr("How many of the likeliest next tokens to show as bars"))
        self.t_label.setText(self.tr("temperature"))
        self.t_spin.setToolTip(
            self.tr("probs = softmax(logits / T): below 1 sharpens the guess, above 1 flattens it (traces again)")
        )
        self.where.setToolTip(self.tr("Click a token, or a row of the table, to see what the model expects after it"))
        self.append_best.setText(self.tr("Append most likely"))
        self.append_best.setToolTip(
            self.tr("Add the likeliest token after the last token of this sentence to the text, and trace again")
        )
        self.append_sampled.setText(self.tr("Append sampled"))
        self.append_sampled.setToolTip(
            self.tr("Draw the next token at random with these probabilities, add it to the text, and trace again")
        )
        self.bars.setToolTip(
            self.tr("The likeliest next tokens after the selected position; bar length relative to the likeliest")
        )
        self.compare_bars.set_legend(self.tr("baseline"), self.tr("intervened"))
        self.compare_bars.setToolTip(
            self.tr(
                "Each token of either run's top k: baseline bar (grey) above the intervened run's; on the right the "
                "change of probability and of rank (↑ more likely, ↓ less)"
            )
        )
        self.table.setToolTip(
            self.tr(
                "Row i: the distribution of the token that follows tokens 0…i. Click a row to select that position."
            )
        )
        self._table_for = None
        self._refresh(fill_table=True)

    # ------------------------------------------------------------------ reading the selection
    def _position(self) -> tuple[int, int] | None:
        trace, sel = self.state.trace, self.state.selection
        if trace is None or "logits" not in trace:
            return None
        length = trace.rows[sel.row].length
        return sel.row, (length - 1 if sel.token is None else min(sel.token, length - 1))

    def _label(self, trace, i: int) -> str:
        return visible(trace.vocab[i]) if trace.vocab is not None and i < len(trace.vocab) else str(i)

    def _refresh(self, fill_table: bool = False) -> None:
        trace = self.state.trace
        where = self._position()
        output_anatomy.forget_hover(self)  # new bars: the hover line named one of the old ones
        can_append = where is not None and not trace.read_only and trace.vocab is not None
        for b in (self.append_best, self.append_sampled):
            b.setEnabled(can_append)
        if where is None:
            if trace is None:
                self.heading.setText(self.tr("No trace yet"))
            elif trace.partial:
                self.heading.setText(self.tr("Computing the next-token output…"))
            else:
                self.heading.setText(self.tr("This trace has no output scores"))
            self.where.setText("")
            self.bars.set_items([])
            self._compare(None, 0, 0)
            self.table.setRowCount(0)
            return
        row, pos = where
        tokens = trace.rows[row].tokens
        context = join_tokens(tokens[max(0, pos - CONTEXT_TOKENS + 1) : pos + 1], trace.tokenizer_kind)
        if pos >= CONTEXT_TOKENS:
            context = "… " + context
        # Positions are counted from 0, as the maps label their rows ("6 [MASK]" is position 6): counted from 1
        # here, BERT's panel called that row position 7 (issue 38).
        if trace.config.mlm_head:  # an encoder predicts the token at the position (a [MASK]), not the next one
            self.heading.setText(self.tr("The token at position {i}: “{context}”").format(i=pos, context=tokens[pos]))
        else:
            self.heading.setText(self.tr("Next token after “{context}”").format(context=context))
        self.where.setText(
            self.tr("position {i} (of 0–{last}) · temperature {t:g}").format(
                i=pos, last=len(tokens) - 1, t=trace.options.temperature
            )
        )
        ids, probs = top_k(trace.probs_row(row, pos), self.k_spin.value())
        self.bars.set_items([(int(i), self._label(trace, int(i)), float(p)) for i, p in zip(ids, probs)])
        self._compare(trace, row, pos)
        self._fit_split()
        if fill_table or self._table_for != (trace.serial, row):
            self._fill_table(trace, row)
        self._select_table_row(pos)

    def _compare(self, trace, row: int, pos: int) -> None:
        """While interventions are active (the trace holds the baseline's probs): both runs' distributions
        after this position, how the tokens moved, and the KL divergence between them."""
        comparing = trace is not None and "baseline.probs" in trace.stored_names()
        self.kl_label.setVisible(comparing)
        self.compare_bars.setVisible(comparing)
        self.bars.setVisible(not comparing)
        if not comparing:
            self.kl = None
            self.compare_bars.set_items([])
            return
        before = np.asarray(trace["baseline.probs"][row, pos])
        after = np.asarray(trace.probs_row(row, pos))
        self.kl = kl_divergence(before, after)
        moves = token_moves(before, after, self.k_spin.value())
        self.compare_bars.set_items(
            [PairedBar(self._label(trace, m.token), m.before, m.after, m.rank_before, m.rank_after) for m in moves]
        )
        self.kl_label.setText(
            self.tr(
                "Interventions are active: grey bars are the baseline (no interventions), coloured bars the intervened "
                "run. KL(baseline ‖ intervened) = {kl} nats"
            ).format(kl=f"{self.kl:.4f}")
        )

    def _fit_split(self) -> None:
        """Give the bars the height they need (up to 60 %), the table the rest."""
        total = sum(self.splitter.sizes())
        if self._user_split or total <= 0:
            return
        shown = self.compare_bars if self.compare_bars.isVisibleTo(self) else self.bars
        bars = min(shown.sizeHint().height() + 4, int(total * 0.6))
        self.splitter.setSizes([bars, total - bars])

    def eventFilter(self, obj, event) -> bool:
        if obj is self.splitter and event.type() == QEvent.Type.Resize:
            QTimer.singleShot(0, self._fit_split)  # after the splitter has shared out its new height
        return False

    def _sync_temperature(self, request) -> None:
        if abs(self.t_spin.value() - request.options.temperature) > 1e-9:
            self.t_spin.blockSignals(True)
            self.t_spin.setValue(request.options.temperature)
            self.t_spin.blockSignals(False)

    # ------------------------------------------------------------------ the C-row table
    def _id_columns(self, V: int) -> list[int | None]:
        """The note's abbreviation: ids 0 and 1, "……", and the last id (all of them when V ≤ 4)."""
        return list(range(V)) if V <= 4 else [0, 1, None, V - 1]

    def _fill_table(self, trace, row: int) -> None:
        self._table_for = (trace.serial, row)
        tokens = trace.rows[row].tokens
        n = min(len(tokens), MAX_TABLE_ROWS)
        V = trace.config.V
        id_cols = self._id_columns(V)
        self.table.blockSignals(True)
        self.table.setUpdatesEnabled(False)
        self.table.clear()
        self.table.setRowCount(n)
        self.table.setColumnCount(2 + len(id_cols))
        encoder = bool(getattr(trace.config, "mlm_head", False))  # it predicts the token at i (a [MASK]), not the next
        headers = [
            self.tr("context"),
            self.tr("likeliest tokens at i") if encoder else self.tr("likeliest next tokens"),
        ]
        for i in id_cols:
            headers.append("……" if i is None else f"{i}\n{self._label(trace, i)}")
        self.table.setHorizontalHeaderLabels(headers)
        for c, i in enumerate(id_cols):
            if i is not None:
                self.table.horizontalHeaderItem(2 + c).setToolTip(
                    plain_tip(self.tr("probability of token id {i} ({token})").format(i=i, token=self._label(trace, i)))
                )
            else:
                self.table.horizontalHeaderItem(2 + c).setToolTip(
                    self.tr("ids 2 … {last}: the rest of the vocabulary of {V}").format(last=V - 2, V=V)
                )
        block = trace.probs_rows(row, 0, n)  # (n, V), one softmax call for the whole table
        for pos in range(n):
            p = block[pos]
            cut = max(0, pos - CONTEXT_TOKENS + 1)
            context = ("… " if cut else "") + join_tokens(tokens[cut : pos + 1], trace.tokenizer_kind)
            ids, probs = top_k(p, TABLE_TOP)
            guesses = " · ".join(f"{self._label(trace, int(i))} {fmt_prob(float(q))}" for i, q in zip(ids, probs))
            cells = [context, guesses] + ["……" if i is None else fmt_prob(float(p[i])) for i in id_cols]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(plain_tip(text))  # a narrow panel elides the cell: the whole text on hover
                if c >= 2:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(pos, c, item)
        self.table.setVerticalHeaderLabels([str(i) for i in range(n)])
        self.table.resizeColumnsToContents()
        self.table.setUpdatesEnabled(True)
        self.table.blockSignals(False)
        title = (
            self.tr("All {C} rows (C × V = {C} × {V}): row i predicts the token at i, seeing every token")
            if encoder
            else self.tr("All {C} rows (C × V = {C} × {V}): row i predicts the token after “… token i”")
        )
        self.table_title.setText(
            title.format(C=len(tokens), V=V)
            + ("" if n == len(tokens) else " " + self.tr("(first {n} shown)").format(n=n))
        )

    def _select_table_row(self, pos: int) -> None:
        if pos < self.table.rowCount() and self.table.currentRow() != pos:
            self.table.blockSignals(True)
            self.table.setCurrentCell(pos, 0)
            self.table.blockSignals(False)

    def _row_clicked(self, row: int, _col: int, _prev_row: int, _prev_col: int) -> None:
        if row >= 0:
            self.state.select(token=row)

    # ------------------------------------------------------------------ generating
    def _append(self, sampled: bool) -> None:
        trace = self.state.trace
        if trace is None or trace.vocab is None or trace.read_only:
            return
        row = self.state.selection.row
        last = trace.rows[row].length - 1  # generation continues the whole sentence
        probs = trace.probs_row(row, last)
        token_id = sample(probs, self.rng) if sampled else argmax(probs)
        text = append_token(self.state.text, row, trace.vocab[token_id], trace.tokenizer_kind)
        self.state.select(token=None)  # follow the new last token
        self.state.set_text(text)
