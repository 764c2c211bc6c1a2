"""The central view: the selected stage of the selected layer, drawn from the trace.

For the (C, C) stages (scores, scaled, masked, weights) it shows every head of the layer as a small map and
the selected head large; for the other stages, the stage's tensor as a (tokens, columns) matrix. Hovering a
cell explains, with the real numbers, how it was made; clicking selects its token (and key) everywhere.
"""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from explorer import names
from explorer.anatomy import ANATOMY_STAGES
from explorer.present import before_after, figure, matrices, stages
from explorer.present.stages import PAIRWISE_STAGE_KEYS, STAGE_KEYS
from explorer.ui.background.render_queue import render_queue
from explorer.ui.views.base import View
from explorer.ui.views.generation import generation_map
from explorer.ui.views.tensor import tensor_anatomy, tensor_controls, tensor_hover, tensor_long, tensor_panels
from explorer.ui.views.tensor.tensor_build import build, fill_lookup, fill_trio
from explorer.ui.views.tensor.tensor_panels import draw_lookup, draw_trio, trio_names
from explorer.ui.words.figure_words import figure_words
from explorer.ui.words.stage_words import stage_titles, stage_words

GRID_SHARE = 0.24  # the grid of heads' share of the view's width (the large map takes the rest)


class TensorView(View):
    def __init__(self, state, parent=None) -> None:
        super().__init__(state, parent)
        self._drawn: tuple | None = None  # what the maps show now: redraw only when this changes
        self._grid_drawn: tuple | None = None
        self._maps: tuple = ([], (0.0, 1.0, False))  # the grid's maps and their (lo, hi, clipped) levels
        self._matrix: matrices.Matrix | None = None
        self._tensor_choice: dict[str, int] = {}  # per stage: which of its tensors the user picked
        # The cell last clicked or entered (what Ctrl+H explains) and the keyboard's cell then. Not ``picked``:
        # that is the Tokens stage's row-of-W_E map (tensor_build.py); rebinding it freed that widget's Python side.
        self.chosen_cell: tuple[int, int] | None = None
        self.trio_hovered: tuple[str, int, int] | None = None  # the Q K V cell last hovered: its link asks it
        self.walked_at_choice: tuple[int, int] | None = None
        self.presenting = False  # presentation mode: one large figure, no controls, no hover hint
        self.focused = False  # Focus (F11): the map and its caption only
        self.hover_line_wanted = True  # False while a short window needs the hover line's room (map_room.py)
        self.caption_wanted = True  # and the same for the title and shape line above the map
        build(self)
        self._wire()
        self.generation_centre = generation_map.attach(self)  # shows the window's generation instead of a stage
        self.generation_centre.when_built(self._wire_generation_anatomy)  # Ctrl+H on its cells
        self.retranslate()  # also draws the current trace, if there is one

    # ------------------------------------------------------------------ building
    def _wire_generation_anatomy(self, gmap) -> None:
        from explorer.ui.views.generation import generation_anatomy  # with the generation's map, not at start

        generation_anatomy.wire(self.generation_centre, gmap)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_caption()
        if not self._split_moved:
            w = self.splitter.width()
            self.splitter.setSizes([round(w * GRID_SHARE), w - round(w * GRID_SHARE)])

    def _fit_caption(self) -> None:
        """The title and shape line repeat the pipeline's line above: shown where the map keeps its 45 % of the
        window's height anyway (a tall window), and in Focus, where they are the map's caption, unless the map
        needs their room (200 % text on a laptop: map_room.py)."""
        if self.state_window() is not None:  # presentation mode decides for its own copy
            tall = (self.focused or self.window().height() >= 1000) and self.caption_wanted
            self.edge.setVisible(tall)
            self.title.setVisible(tall)

    def set_focused(self, on: bool) -> None:
        """Focus: the map and its caption only (no controls, no grid of heads, no hover line)."""
        self.focused = on
        self.bar.setVisible(not on)
        self.explanation.setVisible(not on and self.hover_line_wanted)
        self.how_link.setVisible(False)
        self._fit_caption()
        self._drawn = self._grid_drawn = None
        if self.state.trace is not None:
            self._refresh()

    def show_hover_line(self, shown: bool) -> None:
        """The line under the map, or not: the last thing a short window gives its map (its words are the hover's
        tooltip too, explorer/ui/shell/map_room.py)."""
        self.hover_line_wanted = shown
        self.explanation.setVisible(shown and not self.focused and not self.presenting)

    def show_caption(self, shown: bool) -> None:
        self.caption_wanted = shown
        self._fit_caption()

    def set_presentation(self, text_px: int) -> None:
        """Presentation mode: one large figure per stage (no grid of heads), no controls, no hover hint, and
        every text of the figure at ``text_px`` pixels or more (cell numbers too: smaller ones are not shown)."""
        self.presenting = True
        self.bar.hide()
        self.compare.present(text_px)  # the one control a slide keeps: before / after
        self.explanation.hide()
        self.how_link.hide()
        self.grid.hide()
        self.large.set_text_px(text_px, (text_px, round(text_px * 1.6)), text_px)
        tensor_panels.present(self, text_px)  # Q K V and the Tokens stage's lookup too
        self._drawn = self._grid_drawn = None
        if self.state.trace is not None:
            self._refresh()

    def state_window(self):
        """The main window this view sits in (presentation mode embeds the view in its own window)."""
        from PySide6.QtWidgets import QMainWindow

        w = self.window()
        return w if isinstance(w, QMainWindow) else None

    def _wire(self) -> None:
        s = self.state
        refresh = self.staggered(self._refresh)  # the centre view: always on screen, staggered for long inputs
        s.traceChanged.connect(lambda _t: refresh())
        s.selectionChanged.connect(lambda _sel: refresh())
        self.stage_combo.currentIndexChanged.connect(lambda i: s.select(stage=self.stage_combo.itemData(i)))
        self.layer_spin.valueChanged.connect(lambda v: s.select(layer=v))
        self.head_spin.valueChanged.connect(lambda v: s.select(head=v))
        self.row_spin.valueChanged.connect(lambda v: s.select(row=v))
        self.tensor_combo.currentIndexChanged.connect(self._tensor_picked)
        self.compare.modeChanged.connect(lambda _m: self._refresh())
        self.grid.headClicked.connect(lambda h: s.select(head=h))
        self.grid.cellHovered.connect(lambda h, i, j: tensor_hover.hovered(self, h, i, j))
        self.large.cellHovered.connect(lambda i, j: tensor_hover.hovered(self, s.selection.head, i, j))
        self.large.cellClicked.connect(self._large_clicked)
        self.grid.contextRequested.connect(lambda h, _i, _j, at: self._intervention_menu(h, -1, -1, at))
        self.large.cellContextRequested.connect(
            lambda i, j, at: self._intervention_menu(self.state.selection.head, i, j, at)
        )

    def retranslate(self) -> None:
        self.stage_label.setText(self.tr("&Stage"))
        self.layer_label.setText(self.tr("&Layer"))
        self.head_label.setText(self.tr("&Head"))
        self.tensor_label.setText(self.tr("&Tensor"))
        self.row_label.setText(self.tr("Sente&nce"))
        self.compare.retranslate()
        self._number_stages(self.state.trace.config if self.state.trace is not None else None)
        self.stage_combo.setToolTip(self.tr("Which step of the pipeline to show (the flow view selects it too)"))
        self.layer_spin.setToolTip(self.tr("Layer (block) to show — Alt+PgUp / Alt+PgDown"))
        self.head_spin.setToolTip(self.tr("Attention head shown large — Alt+Left / Alt+Right, or click a small map"))
        self.tensor_combo.setToolTip(self.tr("This stage has several tensors: choose the one to draw"))
        self.row_spin.setToolTip(self.tr("Sentence of the batch (each line of the text is one sentence)"))
        self.grid.setToolTip(self.tr("Every head of the layer on one colour scale: click a map to show it large"))
        for key, text in (
            ("head+", self.tr("next head")),
            ("head-", self.tr("previous head")),
            ("token+", self.tr("next query token")),
            ("token-", self.tr("previous query token")),
            ("layer+", self.tr("next layer")),
            ("layer-", self.tr("previous layer")),
        ):
            self._shortcuts[key].setWhatsThis(text)  # Help → Keyboard shortcuts reads it
        self.large.setToolTip("")
        self.how_link.setText(tensor_anatomy.link_text())
        self.how_link.setToolTip(self.tr("Build the chosen cell's number step by step with its real values (Ctrl+H)"))
        self._hint()
        self._drawn = self._grid_drawn = None
        if self.state.trace is not None:
            self._refresh()

    def stage_title(self, key: str) -> str:
        return self.stage_titles()[key]

    def stage_titles(self) -> dict[str, str]:
        return stage_titles()  # the one table (explorer/present/stage_titles.py), translated

    def export_widget(self) -> QWidget:
        return self.content

    # ------------------------------------------------------------------ state → view
    def _number_stages(self, config) -> None:
        tensor_controls.number_stages(self, config)

    def _sync_controls(self, trace, sel) -> None:
        tensor_controls.sync_controls(self, trace, sel)

    def current_tensor(self) -> str | None:
        return self.tensor_combo.currentData()

    def _refresh(self) -> None:
        trace, sel = self.state.trace, self.state.selection
        if trace is None:
            return
        self._sync_controls(trace, sel)
        pairwise = sel.stage in PAIRWISE_STAGE_KEYS
        head_used = (
            pairwise
            or sel.stage == "qkv"
            or (self.current_tensor() is not None and trace[self.current_tensor()].ndim == 4)
        )
        self.head_spin.setEnabled(head_used and trace.config.H > 1)
        if self.generation_centre.take_over():  # a generation is shown: its map replaces the stage's
            return
        token = sel.token if sel.stage == "tokens" else None  # the lookup shows the selected token's row
        mode = self._shown_mode = self._mode(trace, sel)
        drawn = (
            trace.serial,
            sel.stage,
            sel.layer,
            sel.head if head_used else None,
            sel.row,
            self.current_tensor(),
            token,
            mode,
        )
        if drawn != self._drawn:
            self._drawn = drawn
            self.chosen_cell = self.trio_hovered = None  # another map: its cells are not the one chosen before
            look = sel.stage == "tokens" and "params.embed.tok" in trace
            trio = (
                sel.stage == "qkv"
                and trio_names(trace, sel) is not None
                and (self.current_tensor() is None or self.current_tensor() in trio_names(trace, sel))
            )
            if look:
                fill_lookup(self)  # built while hidden: their plots appear with the stage
            elif trio:
                fill_trio(self)
            shown = self.lookup if look else self.trio if trio else self.splitter
            for w in (self.lookup, self.trio, self.splitter):  # hide first: both at once would stretch the window
                if w is not shown:
                    w.hide()
            shown.show()
            if look:
                draw_lookup(self, trace, sel)
            elif trio:
                draw_trio(self, trace, sel, self.state.baseline, mode)
            else:
                self._draw_pairwise(trace, sel, mode) if pairwise else self._draw_matrix(trace, sel, mode)
            self._caption(trace, sel)
            self._hint()
        key = sel.key if pairwise else None
        self._show_link(sel, key)
        self.large.set_highlight(sel.token, key)
        for m in self.qkv.values():
            m.set_highlight(sel.token, None)
        if pairwise:
            self.grid.set_selected(sel.head)
            self.grid.set_highlight(sel.token, key)

    # ------------------------------------------------------------------ before / after (issue 15)
    def _mode(self, trace, sel) -> str:
        """The run to draw (the switch is shown only while interventions are active)."""
        name = {"tokens": None, "qkv": names.attn(sel.layer, "q")}.get(sel.stage, self.current_tensor())
        if sel.stage in PAIRWISE_STAGE_KEYS:
            name = names.attn(sel.layer, sel.stage)
        return self.compare.choose(self.state.baseline, name, same_tokens=sel.stage == "tokens")

    def _caption(self, trace, sel) -> None:
        keys = stages.stage_keys_for(trace.config)  # a pre-norm is a step only when the model has one
        i = keys.index(sel.stage) if sel.stage in keys else STAGE_KEYS.index(sel.stage)
        where = self.tr("layer {layer}").format(layer=sel.layer) if stages.stage(sel.stage).per_layer else ""
        self.title.setText(
            self.tr("Step {n} of {total}: {title}").format(n=i + 1, total=len(keys), title=self.stage_title(sel.stage))
            + (f" — {where}" if where else "")
        )
        self.edge.setText(stages.edge_label(sel.stage, trace, sel.layer, sel.row, stage_words()))

    def _draw_pairwise(self, trace, sel, mode: str = "intervened") -> None:
        self.large.show()  # hidden while a matrix stage had nothing to draw
        self._matrix = None
        if tensor_long.draw(self, trace, sel):  # a long text's map: its overview, exact cells when zoomed in
            return
        # Long inputs show the selected head alone (Alt+← → step through the others).
        one_head = matrices.shows_one_head(trace, sel.row)
        self.grid.setVisible(not one_head and not self.presenting and not self.focused)
        baseline = self.state.baseline if mode != "intervened" else None
        grid_key = (
            trace.layer_serial(sel.layer),
            sel.stage,
            sel.layer,
            sel.row,
            sel.head if one_head else None,
            mode,
            baseline.serial if baseline is not None else None,
        )
        signed = mode == "difference" or names.spec(names.attn(sel.layer, sel.stage)).signed
        mask = matrices.blocked_cells(trace, sel.row)
        # the weights the mask set to 0 are drawn as blocked, like the −∞ they came from
        blocked = mask if sel.stage == "weights" else None
        if grid_key != self._grid_drawn:  # a new layer or stage: every head's map and the shared scale
            self._grid_drawn = grid_key
            heads = [sel.head] if one_head else range(trace.config.H)
            # one scale for every head, so heads can be compared; long sentences clip the weights' top
            self._maps = before_after.shown_maps(
                trace, baseline, sel.stage, sel.layer, sel.row, heads, mode, None if mask is None else ~mask
            )
            if not one_head:
                self._post_grid(trace, sel, mode, signed, blocked, heads)
            else:
                render_queue().cancel(self, self._draw_grid)
        maps, levels = self._maps
        remark = self.tr("long input: one head at a time (Alt+← / Alt+→ for the others)") if one_head else ""
        panel = figure.pairwise_panel(trace, sel, maps[sel.head], levels, signed)
        self.large.show_panel(panel, figure_words(), self.compare.prefix(mode), remark)

    def _post_grid(self, trace, sel, mode: str, signed: bool, blocked, heads) -> None:
        """Every head's thumbnail. A long input's grid is drawn in the turn after the big map (render_queue):
        drawn in one job, the two and their repaints blocked the window for 10–16 ms of a 1024-token trace."""
        maps, levels = list(self._maps[0].values()), self._maps[1][:2]

        def draw() -> None:
            thumbs = None
            if mode == "intervened":  # the trace's own maps: shrunk once, often by the worker already
                thumbs = (
                    [matrices.head_thumbnail(trace, sel.stage, sel.layer, sel.row, h) for h in heads],
                    matrices.blocked_thumbnail(trace, sel.row) if blocked is not None else None,
                )
            self.grid.set_maps(
                maps, levels, signed, [self.tr("head {h}").format(h=h) for h in range(len(maps))], blocked, thumbs
            )

        self.staggered(self._draw_grid)(draw)  # a short trace draws at once and drops a pending long grid

    def _draw_grid(self, draw) -> None:
        draw()

    def _draw_matrix(self, trace, sel, mode: str = "intervened") -> None:
        self.grid.hide()
        self._grid_drawn = None
        name = self.current_tensor()
        # a layer without this stage's tensors (a mixture's dense layer has no router) draws nothing, not the last map
        self.large.setVisible(name is not None)
        if name is None:
            self._matrix = None
            return
        if mode == "intervened":
            m = matrices.stage_matrix(trace, name, sel.head, sel.row)
        else:
            m = before_after.compared_matrix(trace, self.state.baseline, name, sel.head, sel.row, mode)
        self._matrix = m
        self.large.show_panel(figure.matrix_panel(m, sel), figure_words(), self.compare.prefix(mode))

    # ------------------------------------------------------------------ hover and click
    def _hint(self) -> None:
        self.explanation.setText(
            self.tr("Hover over a cell to see how it was made from the real numbers; click it to select its token.")
        )

    def cell_explanation(self, head: int, i: int, j: int) -> str:
        """Two lines: which cell and its number as the map prints it, then how it was made."""
        return tensor_hover.cell_explanation(self, head, i, j)

    def intervention_menu(self, head: int, i: int = -1, j: int = -1):
        """Ablate a head / cut an edge (issue 15); only where the view shows a layer's per-head maps."""
        from explorer.ui.views.tensor.intervention_menu import intervention_menu

        if self.state.selection.stage not in PAIRWISE_STAGE_KEYS:
            return None
        return intervention_menu(self.state, self, self.state.selection.layer, head, i, j)

    def _show_link(self, sel, key) -> None:
        """The link under the map, once a cell with an anatomy is chosen (clicked, entered, or the selected key)."""
        chosen = self.chosen_cell is not None or (sel.token is not None and key is not None)
        chosen = chosen or (sel.stage == "qkv" and self.trio_hovered is not None)  # the link of the trio's hover
        self.how_link.setVisible(chosen and sel.stage in ANATOMY_STAGES and not self.presenting and not self.focused)

    def ask_anatomy(self, cell: tuple[int, int] | None = None) -> bool:
        """“How is this made?” (Ctrl+H, the context menu, the link under the map) for ``cell`` or the chosen one."""
        return tensor_anatomy.ask(self, cell)

    def _intervention_menu(self, head: int, i: int, j: int, at) -> None:
        if getattr(self, "context_menu", None) is not None:
            self.context_menu.deleteLater()
        self.context_menu = self.intervention_menu(head, i, j)
        if i >= 0 and j >= 0 and head == self.state.selection.head:  # a cell of the large map: its anatomy first
            self.context_menu = tensor_anatomy.add_how_entry(self, self.context_menu, i, j)
        if self.context_menu is not None:
            self.context_menu.popup(at)  # not exec(): no nested event loop while the worker re-traces

    def pick(self, i: int, j: int) -> None:
        """Cell (i, j) of the large map is the chosen one (a click, Enter, the context menu)."""
        self.chosen_cell = (i, j)
        self.walked_at_choice = self.large.access.cell

    def _large_clicked(self, i: int, j: int) -> None:
        self.pick(i, j)
        if self.state.selection.stage in PAIRWISE_STAGE_KEYS:
            self.state.select(token=i, key=j)
        else:
            self.state.select(token=i)
        sel = self.state.selection
        self._show_link(sel, sel.key if sel.stage in PAIRWISE_STAGE_KEYS else None)

    def _tensor_picked(self, index: int) -> None:
        if index >= 0:
            self._tensor_choice[self.state.selection.stage] = index
            self._refresh()

    def _step(self, what: str, step: int) -> None:
        tensor_controls.step_selection(self, what, step)
