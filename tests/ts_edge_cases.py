"""A small .ts file with every case lrelease compiles differently (finished, unfinished with and without a text,
vanished, obsolete, a disambiguation, XML escapes, plural forms), shared by tests/core/test_translations_reader.py
(the pure reader's answers) and tests/ui/test_figure_words_pure.py (the same answers from Qt, after lrelease)."""

from __future__ import annotations

EDGE_CASES_TS = """<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja" sourcelanguage="en">
<context>
    <name>View</name>
    <message><source>done</source><translation>済み</translation></message>
    <message><source>draft</source><translation type="unfinished">下書き</translation></message>
    <message><source>todo</source><translation type="unfinished"></translation></message>
    <message><source>gone</source><translation type="vanished">消えた</translation></message>
    <message><source>old</source><translation type="obsolete">古い</translation></message>
    <message><source>bank</source><comment>river</comment><translation>岸</translation></message>
    <message><source>bank</source><translation>銀行</translation></message>
    <message><source>a &lt;b&gt; &amp; {n}</source><translation>ア &lt;b&gt; &amp; {n}</translation></message>
    <message numerus="yes">
        <source>%n files</source><translation><numerusform>%n 個</numerusform></translation>
    </message>
</context>
<context>
    <name>Other</name>
    <message><source>done</source><translation>完了</translation></message>
</context>
</TS>
"""
