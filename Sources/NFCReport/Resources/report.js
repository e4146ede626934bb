// nfctrace report: the page script. Reads each trace's data (ReportRenderer's columns) and
// frame dissections (dissect --format json lines) from the inert script elements, and builds
// the tabs, session list, timeline, virtual frame list, frame detail and memory map.
"use strict";
(function () {
  const ROW = 20;                    // px per row of the frame list
  const LANE_LABELS = 28;            // px left of the timeline's time axis
  const SESSION_LINES = 1000;        // sessions listed by name above the timeline
  const MAX_SPACER = 15000000;       // px; browsers cap element heights (Firefox near 17.9M)
  const KIND = ["reader", "tag", "field", "field", "malformed"];
  const SRC = ["Rdr", "Tag", "RF", "RF", "!!"];
  const CRC = ["", "ok", "BAD", "strip", "?"];
  const SEVERITY = { note: 1, warning: 2, error: 3 };

  const el = (tag, attrs, ...children) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
    }
    for (const c of children) if (c != null) e.append(c);
    return e;
  };
  const spaced = (hex) => hex.replace(/(..)(?=.)/g, "$1 ");
  const micro = (tenths) => Number.isNaN(tenths) ? "" : (tenths / 10).toFixed(1);
  const known = (t) => !Number.isNaN(t);

  // The columns as written (differences, nulls) made absolute: times in tenths of µs (NaN when
  // unknown), paired frame numbers (+answer, −request, 0), session numbers.
  function decode(d) {
    const n = d.frames;
    const t = new Float64Array(n), p = new Int32Array(n), s = new Int32Array(n);
    let time = 0, session = 0;
    for (let i = 0; i < n; i++) {
      const dt = d.t[i];
      if (dt === null) t[i] = NaN; else { time += dt; t[i] = time; }
      const dp = d.p[i];
      p[i] = dp === 0 ? 0 : dp > 0 ? i + 1 + dp : -(i + 1 + dp);
      session += d.n[i];
      s[i] = session;
    }
    d.t = t; d.p = p; d.n = s;
    return d;
  }

  class Trace {
    constructor(data, detailText, index) {
      this.d = decode(data);
      this.index = index;
      this.detailText = detailText;
      this.lineStarts = null;
      this.cache = new Map();
      this.n = data.frames;
      this.visible = null;           // Int32Array of frame indexes passing the filter, or null = all
      this.selected = -1;
      this.highlight = null;         // [a, b) byte range of the selected field
      this.build();
    }

    count() { return this.visible ? this.visible.length : this.n; }
    at(i) { return this.visible ? this.visible[i] : i; }
    position(frame) {
      if (!this.visible) return frame;
      let lo = 0, hi = this.visible.length - 1;
      while (lo <= hi) { const m = (lo + hi) >> 1; const v = this.visible[m]; if (v === frame) return m; if (v < frame) lo = m + 1; else hi = m - 1; }
      return -1;
    }

    // One frame's dissect --format json object (frames up to detail_frames), parsed when needed.
    detail(i) {
      if (i >= this.d.detail_frames) return null;
      if (this.cache.has(i)) return this.cache.get(i);
      if (!this.lineStarts) {
        const starts = new Int32Array(this.d.detail_frames + 1);
        let p = 0, k = 0;
        while (k < this.d.detail_frames) { starts[k++] = p; const q = this.detailText.indexOf("\n", p); p = q < 0 ? this.detailText.length : q + 1; }
        starts[k] = p;
        this.lineStarts = starts;
      }
      let obj = null;
      try { obj = JSON.parse(this.detailText.slice(this.lineStarts[i], this.lineStarts[i + 1])); } catch (e) { obj = null; }
      if (this.cache.size > 2000) this.cache.clear();
      this.cache.set(i, obj);
      return obj;
    }

    build() {
      const d = this.d;
      this.root = el("section", { class: "trace", "data-trace": String(this.index) });
      // Sessions with their summary line.
      const sessions = el("div", { class: "sessions" });
      if (d.sessions.length === 0) sessions.append(el("div", { class: "empty", text: "No tag session." }));
      // The first SESSION_LINES sessions as lines (48,000 session lines of a million-frame
      // capture took seconds to lay out); the rest are counted, and `session == N` finds them.
      for (const s of d.sessions.slice(0, SESSION_LINES)) {
        const row = el("div", { class: "session", "data-session": String(s.number) },
          el("span", { class: "tech", text: `#${s.number} ${s.technology} frames ${s.first_frame}–${s.last_frame}` }), s.headline);
        row.addEventListener("click", () => { this.select(s.first_frame - 1, true); this.showMemory(s.number); });
        sessions.append(row);
      }
      if (d.sessions.length > SESSION_LINES) {
        sessions.append(el("div", { class: "empty", text: `… and ${(d.sessions.length - SESSION_LINES).toLocaleString("en-US")} more sessions (filter: session == N)` }));
      }
      // Timeline.
      const tl = el("div", { class: "timeline" });
      this.canvas = el("canvas", { "aria-label": "timeline" });
      this.axisInfo = el("div", { class: "axis-info" });
      tl.append(this.canvas, this.axisInfo);
      // Frame list (virtual) and detail.
      this.viewport = el("div", { class: "viewport", tabindex: "0" });
      this.spacer = el("div", { class: "spacer" });
      this.viewport.append(this.spacer);
      const head = el("div", { class: "head" }, el("span", { text: "#" }), el("span", { text: "µs" }), el("span", { text: "src" }),
        el("span", { text: "data" }), el("span", { text: "crc" }), el("span", { text: "annotation" }));
      const list = el("div", { class: "list" }, head, this.viewport);
      this.detailPane = el("div", { class: "detail" }, el("div", { class: "empty", text: "Select a frame (j/k, arrows, click)." }));
      this.memoryPane = el("div", { class: "memory" });
      this.root.append(sessions, tl, el("div", { class: "panes" }, list, this.detailPane), this.memoryPane);
      this.viewport.addEventListener("scroll", () => this.renderRows());
      this.viewport.addEventListener("click", (e) => {
        const row = e.target.closest(".row");
        if (row) this.select(Number(row.dataset.frame), false);
      });
      this.setupTimeline();
      if (d.sessions.length > 0) this.showMemory(d.sessions[0].number);
      else this.memoryPane.append(el("div", { class: "empty", text: "No tag memory rebuilt." }));
    }

    // ---- frame list -------------------------------------------------------------------------
    layout() {
      const total = this.count() * ROW;
      this.scale = total > MAX_SPACER ? (MAX_SPACER - this.viewport.clientHeight) / (total - this.viewport.clientHeight) : 1;
      this.spacer.style.height = Math.min(total, MAX_SPACER) + "px";
      this.renderRows();
    }

    firstRow() {
      const top = this.viewport.scrollTop;
      return this.scale === 1 ? Math.floor(top / ROW) : Math.floor(top / this.scale / ROW);
    }

    // Only the rows in view exist; a row that stays in view keeps its element (a click on it,
    // or the pointer over it, survives the redraws that scrolling and selecting cause).
    renderRows() {
      const height = this.viewport.clientHeight || 600;
      const first = Math.max(0, this.firstRow() - 5);
      const last = Math.min(this.count(), first + Math.ceil(height / ROW) + 10);
      const offset = this.scale === 1 ? 0 : this.viewport.scrollTop - this.firstRow() * ROW;
      const d = this.d;
      const pairOfSelected = this.selected >= 0 ? Math.abs(d.p[this.selected]) - 1 : -2;
      const old = this.rows || new Map();
      const rows = new Map();
      for (let i = first; i < last; i++) {
        const f = this.at(i);
        let row = old.get(f);
        if (row) old.delete(f); else { row = this.makeRow(f); this.spacer.append(row); }
        row.className = `row ${KIND[d.k[f]]} g${d.g[f]}${f === this.selected ? " sel" : ""}${f === pairOfSelected ? " pair" : ""}`;
        row.style.top = (this.scale === 1 ? i * ROW : i * ROW + offset) + "px";
        rows.set(f, row);
      }
      for (const row of old.values()) row.remove();
      this.rows = rows;
    }

    makeRow(f) {
      const d = this.d;
      const k = d.k[f];
      const hex = d.x[f];
      let bytes = hex.length > 64 ? spaced(hex.slice(0, 64)) + " …" : spaced(hex);
      if (d.b[f] !== 8 && hex.length > 0) bytes += `(${d.b[f]})`;
      const crc = d.c[f];
      return el("div", { "data-frame": String(f) },
        el("span", { class: "num", text: String(f + 1) }), el("span", { class: "time", text: micro(d.t[f]) }),
        el("span", { class: "src", text: SRC[k] }), el("span", { class: "bytes", text: bytes }),
        el("span", { class: crc === 2 ? "crc crc-bad" : "crc", text: CRC[crc] }), el("span", { class: "ann", text: d.strings[d.s[f]] }));
    }

    scrollToRow(i) {
      const height = this.viewport.clientHeight;
      const y = i * ROW * this.scale;
      if (this.scale !== 1) { this.viewport.scrollTop = y; return; }
      if (y < this.viewport.scrollTop) this.viewport.scrollTop = y;
      else if (y + ROW > this.viewport.scrollTop + height) this.viewport.scrollTop = y + ROW - height;
    }

    select(frame, scroll) {
      if (frame < 0 || frame >= this.n) return;
      this.selected = frame;
      this.highlight = null;
      const pos = this.position(frame);
      if (scroll !== false && pos >= 0) this.scrollToRow(pos);
      this.renderRows();
      this.showDetail(frame);
      this.drawTimeline();
      const s = this.d.n[frame];
      if (s > 0 && s !== this.memorySession) this.showMemory(s);
    }

    move(delta) {
      const count = this.count();
      if (count === 0) return;
      let pos = this.selected < 0 ? -1 : this.position(this.selected);
      if (pos < 0 && this.selected >= 0 && this.visible) {
        // The selected frame was filtered out: the next visible one after it.
        pos = this.visible.findIndex((v) => v > this.selected) - (delta > 0 ? 1 : 0);
      }
      const next = Math.max(0, Math.min(count - 1, pos + delta));
      this.select(this.at(next), true);
    }

    // ---- frame detail -------------------------------------------------------------------------
    showDetail(f) {
      const d = this.d;
      const pane = this.detailPane;
      pane.replaceChildren();
      const k = d.k[f];
      pane.append(el("h2", { text: `Frame ${f + 1} · ${SRC[k]} · ${d.strings[d.l[f]]} · ${d.strings[d.s[f]]}` }));
      const links = el("div", { class: "links" });
      const p = d.p[f];
      if (p > 0) links.append(this.link(`answer: frame ${p}`, p - 1));
      if (p < 0) links.append(this.link(`request: frame ${-p}`, -p - 1));
      if (links.childElementCount) pane.append(links);
      const info = [];
      if (known(d.t[f])) info.push(`${micro(d.t[f])} µs`);
      if (d.d[f] >= 0) info.push(`lasts ${micro(d.d[f])} µs`);
      info.push(d.strings[d.y[f]]);
      if (d.c[f]) info.push(`CRC ${CRC[d.c[f]]}`);
      pane.append(el("div", { class: "help", text: info.join(" · ") }));
      const obj = this.detail(f);
      // The bytes as captured; a decrypted frame (MIFARE Classic) also in clear, same positions.
      const hexRow = (x, label) => {
        const hex = el("div", { class: "hex", "aria-label": label });
        if (obj && obj.decrypted) hex.append(el("span", { class: "help", text: label + ": " }));
        for (let i = 0; i < x.length / 2; i++) {
          const b = x.substr(i * 2, 2);
          hex.append(el("span", { class: b === "**" ? "byte masked" : "byte", "data-i": String(i), text: b }), " ");
        }
        hex.addEventListener("click", (e) => { const b = e.target.closest(".byte"); if (b) this.pickByte(Number(b.dataset.i)); });
        pane.append(hex);
      };
      hexRow(d.x[f], obj && obj.decrypted ? "on air (encrypted)" : "bytes");
      if (obj && obj.decrypted) hexRow(obj.decrypted, "decrypted");
      if (!obj) {
        pane.append(el("div", { class: "empty", text: f >= d.detail_frames
          ? `Field tree not included: frame past --detail-limit ${d.detail_limit}; nfctrace dissect -V shows it.` : "No dissection." }));
        return;
      }
      for (const g of obj.diagnostics || []) pane.append(el("div", { class: `diag ${g.severity}`, text: `${g.severity}: ${g.message}` }));
      if (obj.crc === "bad") pane.append(el("div", { class: "diag error", text: `CRC bad: expected ${obj.crc_expected}, found ${obj.crc_found}` }));
      if (obj.comment) pane.append(el("div", { class: "help", text: `comment: ${obj.comment}` }));
      this.tree = el("ul", { class: "tree", "aria-label": "fields" });
      this.fieldList = [];
      this.addFields(this.tree, obj.fields || [], 0);
      this.tree.addEventListener("click", (e) => {
        const f2 = e.target.closest(".f");
        if (f2) this.pickField(Number(f2.dataset.n));
      });
      pane.append(this.tree);
      if (!obj.fields || obj.fields.length === 0) pane.append(el("div", { class: "empty", text: "No fields." }));
      // An APDU joined from chained blocks: the frames that carried it.
      const joined = findField(obj.fields || [], "apdu.reassembled");
      if (joined) {
        const m = /frames (\d+)\D+(\d+)/.exec(joined.label);
        const layer = el("div", { class: "layers" }, el("div", { text: joined.label }));
        if (m) {
          const links = el("div", { class: "links" });
          for (let n = Number(m[1]); n <= Number(m[2]) && n - Number(m[1]) < 32; n++) links.append(this.link(`frame ${n}`, n - 1));
          layer.append(links);
        }
        pane.append(layer);
      }
    }

    link(text, frame) {
      const a = el("a", { text, "data-frame": String(frame), tabindex: "0" });
      a.addEventListener("click", () => this.select(frame, true));
      return a;
    }

    addFields(ul, fields, depth) {
      for (const f of fields) {
        const n = this.fieldList.length;
        this.fieldList.push({ range: f.range || null, depth });
        const label = el("span", { class: "f", "data-n": String(n), "data-key": f.key || "", "data-value": f.value == null ? "" : String(f.value) },
          el("span", { class: "label", text: f.label }), f.value != null && f.value !== "" ? `: ${f.value}` : "",
          el("span", { class: "key", text: f.key || "" }), f.range ? el("span", { class: "range", text: `[${f.range[0]}…${f.range[1]})` }) : null);
        const li = el("li", {}, label);
        if (f.children && f.children.length) { const sub = el("ul"); this.addFields(sub, f.children, depth + 1); li.append(sub); }
        ul.append(li);
      }
    }

    // A field selected: its bytes highlighted. A byte selected: the deepest field holding it.
    pickField(n) {
      const field = this.fieldList[n];
      for (const e of this.tree.querySelectorAll(".f.hl")) e.classList.remove("hl");
      const label = this.tree.querySelector(`.f[data-n="${n}"]`);
      if (label) label.classList.add("hl");
      this.highlightBytes(field.range);
    }

    pickByte(i) {
      if (!this.fieldList) return;
      let best = -1, bestWidth = Infinity, bestDepth = -1;
      this.fieldList.forEach((f, n) => {
        if (!f.range || i < f.range[0] || i >= f.range[1]) return;
        const w = f.range[1] - f.range[0];
        if (w < bestWidth || (w === bestWidth && f.depth > bestDepth)) { best = n; bestWidth = w; bestDepth = f.depth; }
      });
      if (best >= 0) {
        this.pickField(best);
        const label = this.tree.querySelector(`.f[data-n="${best}"]`);
        if (label) label.scrollIntoView({ block: "nearest" });
      } else {
        for (const e of this.tree.querySelectorAll(".f.hl")) e.classList.remove("hl");
        this.highlightBytes([i, i + 1]);
      }
    }

    highlightBytes(range) {
      this.highlight = range;
      for (const b of this.detailPane.querySelectorAll(".hex .byte")) {
        const i = Number(b.dataset.i);
        b.classList.toggle("hl", !!range && i >= range[0] && i < range[1]);
      }
    }

    // ---- memory map -----------------------------------------------------------------------------
    showMemory(number) {
      this.memorySession = number;
      const s = this.d.sessions.find((x) => x.number === number);
      const pane = this.memoryPane;
      pane.replaceChildren();
      if (!s) return;
      pane.append(el("h2", { text: `Tag memory, session ${number}: ${s.headline}` }));
      const memory = s.memory || [];
      const rows = memoryRows(memory, s.tag);
      // Beside the grid, what it does not show: the decoded structures (regions and loose rows
      // are in the grid already).
      const decoded = memory.filter((m) => m.key !== "memory.region" && !/^memory\.(page|block)$/.test(m.key));
      if (rows.length === 0 && decoded.length === 0) {
        pane.append(el("div", { class: "empty", text: s.tag && s.tag.length === 0 && s.first_frame > this.d.detail_limit
          ? "Memory not included: the session starts past --detail-limit." : "No memory rebuilt in this session." }));
        return;
      }
      if (rows.length) {
        const width = Math.max(...rows.map((r) => r.bytes.length));
        pane.append(el("div", { class: "legend" }, "bytes:", el("span", { class: "cell r-user read", text: "00" }), "read",
          el("span", { class: "cell r-user written", text: "00" }), "written (outlined)",
          el("span", { class: "cell never", text: "··" }), "never seen", " · select a byte for its frames"));
        const grid = el("div", { class: "memgrid", "aria-label": "memory map" });
        grid.style.gridTemplateColumns = `70px repeat(${width}, 26px) 1fr`;
        for (const r of rows) {
          grid.append(el("span", { class: "addr", text: r.addr }));
          for (let i = 0; i < width; i++) {
            const b = r.bytes[i];
            const ok = b && /^[0-9A-F]{2}$/.test(b);
            const access = r.offset >= 0 ? this.accesses(number, r.offset + i, r.space) : [];
            const seen = access.some((a) => a.write) ? " written" : access.length ? " read" : "";
            if (i >= r.bytes.length) { grid.append(el("span")); continue; }
            if (r.never) { grid.append(el("span", { class: `cell ${r.cls} unknown never`, title: "never read or written in this session", text: "··" })); continue; }
            grid.append(el("span", { class: `cell ${r.cls}${ok ? "" : " unknown"}${seen}`, "data-offset": String(r.offset >= 0 ? r.offset + i : -1), "data-space": String(r.space),
              title: access.length ? access.map((a) => `${a.write ? "written" : "read"} in frame ${a.frame + 1}`).join(", ") : "", text: ok || b === "**" ? b : "··" }));
          }
          grid.append(el("span", { class: "region", text: r.note }));
        }
        grid.addEventListener("click", (e) => {
          const c = e.target.closest(".cell");
          if (c && Number(c.dataset.offset) >= 0) this.showAccesses(number, Number(c.dataset.offset), Number(c.dataset.space), c);
        });
        pane.append(grid);
        this.accessLine = el("div", { class: "links access", "aria-label": "frames of this byte" },
          el("span", { class: "help", text: "Select a byte to see the frames that read or wrote it." }));
        pane.append(this.accessLine);
      }
      if (decoded.length) {
        const ul = el("ul", { class: "tree memtree", "aria-label": "memory fields" });
        const saved = this.fieldList;
        this.fieldList = [];
        this.addFields(ul, decoded, 0);
        this.fieldList = saved;
        pane.append(ul);
      }
    }

    // The frames of a session that read or wrote a byte of its memory image (of one FeliCa
    // service's blocks when `space` is its code; −1 for every other technology).
    accesses(session, offset, space = -1) {
      if (!this.accessIndex) {
        const index = new Map(), m = this.d.m || [];
        for (let i = 0; i + 5 < m.length; i += 6) {
          const frame = m[i], s = this.d.n[frame];
          if (!index.has(s)) index.set(s, []);
          index.get(s).push({ frame, offset: m[i + 1], count: m[i + 2], wrap: m[i + 3], write: m[i + 4] === 1, service: m[i + 5] });
        }
        this.accessIndex = index;
      }
      return (this.accessIndex.get(session) || []).filter((a) => {
        if (a.service !== space) return false;
        const end = a.offset + a.count;
        if (offset >= a.offset && offset < end) return true;
        return a.wrap > 0 && end > a.wrap && offset < end - a.wrap;
      });
    }

    showAccesses(session, offset, space, cell) {
      for (const c of this.memoryPane.querySelectorAll(".cell.picked")) c.classList.remove("picked");
      cell.classList.add("picked");
      const list = this.accesses(session, offset, space);
      this.accessLine.replaceChildren(el("span", { text: `byte ${offset} (0x${offset.toString(16).toUpperCase()}): ` }));
      if (list.length === 0) this.accessLine.append(el("span", { class: "help", text: "no frame of this session read or wrote it" }));
      for (const a of list) this.accessLine.append(this.link(`${a.write ? "written" : "read"} in frame ${a.frame + 1}`, a.frame));
    }

    // ---- timeline ---------------------------------------------------------------------------------
    setupTimeline() {
      const d = this.d;
      let lo = Infinity, hi = -Infinity;
      for (let i = 0; i < this.n; i++) { const t = d.t[i]; if (known(t)) { if (t < lo) lo = t; const e = t + Math.max(0, d.d[i]); if (e > hi) hi = e; } }
      if (lo === Infinity) { lo = 0; hi = 1; }
      if (hi <= lo) hi = lo + 10;
      this.full = [lo, hi];
      this.view = [lo, hi];
      let drag = null;
      const c = this.canvas;
      c.addEventListener("wheel", (e) => {
        e.preventDefault();
        const at = this.timeAt(e.clientX);
        const factor = Math.exp(e.deltaY * 0.002);
        const width = Math.max(10, Math.min(this.full[1] - this.full[0], (this.view[1] - this.view[0]) * factor));
        const left = at - (at - this.view[0]) * width / (this.view[1] - this.view[0]);
        this.view = [left, left + width];
        this.drawTimeline();
      }, { passive: false });
      c.addEventListener("mousedown", (e) => { drag = { x: e.clientX, view: this.view.slice(), moved: false }; c.style.cursor = "grabbing"; });
      window.addEventListener("mousemove", (e) => {
        if (!drag) return;
        const r = c.getBoundingClientRect();
        const dx = (e.clientX - drag.x) / (r.width - LANE_LABELS) * (drag.view[1] - drag.view[0]);
        if (Math.abs(e.clientX - drag.x) > 2) drag.moved = true;
        this.view = [drag.view[0] - dx, drag.view[1] - dx];
        this.drawTimeline();
      });
      window.addEventListener("mouseup", (e) => {
        if (!drag) return;
        const moved = drag.moved;
        drag = null;
        c.style.cursor = "";
        if (!moved && e.target === c) this.pickTime(e);
      });
      c.addEventListener("dblclick", () => { this.view = this.full.slice(); this.drawTimeline(); });
    }

    // The time under a horizontal position of the pointer.
    timeAt(clientX) {
      const r = this.canvas.getBoundingClientRect();
      return this.view[0] + (clientX - r.left - LANE_LABELS) / (r.width - LANE_LABELS) * (this.view[1] - this.view[0]);
    }

    pickTime(e) {
      const r = this.canvas.getBoundingClientRect();
      const t = this.timeAt(e.clientX);
      const perPx = (this.view[1] - this.view[0]) / (r.width - LANE_LABELS);
      let best = -1, bestDist = 6 * perPx;
      const d = this.d;
      const from = lowerBound(d.t, t - bestDist, this.n);
      for (let i = from; i < this.n && !(d.t[i] > t + bestDist); i++) {
        if (!known(d.t[i])) continue;
        const dist = t < d.t[i] ? d.t[i] - t : Math.max(0, t - d.t[i] - Math.max(0, d.d[i]));
        if (dist < bestDist) { best = i; bestDist = dist; }
      }
      if (best >= 0) this.select(best, true);
    }

    drawTimeline() {
      const c = this.canvas;
      const w = c.clientWidth, h = c.clientHeight;
      if (!w || !h) return;
      const ratio = window.devicePixelRatio || 1;
      if (c.width !== Math.round(w * ratio)) { c.width = Math.round(w * ratio); c.height = Math.round(h * ratio); }
      const g = c.getContext("2d");
      g.setTransform(ratio, 0, 0, ratio, 0, 0);
      g.clearRect(0, 0, w, h);
      const css = getComputedStyle(document.documentElement);
      const color = (v) => css.getPropertyValue(v).trim();
      const [v0, v1] = this.view;
      const margin = LANE_LABELS;
      const px = (t) => margin + (t - v0) / (v1 - v0) * (w - margin);
      const d = this.d;
      const lanes = { rf: 8, reader: 26, tag: 50, diag: 74 };
      g.font = "10px sans-serif";
      g.fillStyle = color("--muted");
      g.fillText("RF", 2, lanes.rf + 9); g.fillText("Rdr", 2, lanes.reader + 12); g.fillText("Tag", 2, lanes.tag + 12);
      // Field on/off as bands.
      let on = null;
      g.fillStyle = color("--line");
      for (let i = 0; i < this.n; i++) {
        if (d.k[i] === 2 && known(d.t[i])) on = d.t[i];
        else if (d.k[i] === 3 && known(d.t[i]) && on !== null) {
          if (d.t[i] >= v0 && on <= v1) { const a = Math.max(margin, px(on)); g.fillRect(a, lanes.rf, Math.max(1, px(d.t[i]) - a), 8); }
          on = null;
        }
      }
      if (on !== null && on <= v1) g.fillRect(Math.max(margin, px(on)), lanes.rf, w - Math.max(margin, px(on)), 8);
      // Frames: one mark per pixel column and lane at most (a million frames stay fast).
      const from = lowerBound(d.t, v0 - (v1 - v0), this.n);
      let lastReader = -1, lastTag = -1;
      const readerColor = color("--reader"), tagColor = color("--tag"), warn = color("--warn"), err = color("--err");
      for (let i = from; i < this.n; i++) {
        const t = d.t[i];
        if (!known(t)) continue;
        if (t > v1) break;
        const k = d.k[i];
        if (k > 1) continue;
        const x = px(t);
        if (x < margin) continue;
        const x2 = d.d[i] > 0 ? px(t + d.d[i]) : x + 1;
        const column = Math.floor(x);
        if (k === 0) { if (column !== lastReader || x2 - x > 1) { g.fillStyle = readerColor; g.fillRect(x, lanes.reader, Math.max(1, x2 - x), 18); lastReader = column; } }
        else if (column !== lastTag || x2 - x > 1) { g.fillStyle = tagColor; g.fillRect(x, lanes.tag, Math.max(1, x2 - x), 18); lastTag = column; }
        // A request without an answer, a diagnostic, a bad CRC: marked below.
        const missing = k === 0 && d.p[i] === 0;
        if (d.g[i] >= 2 || d.c[i] === 2 || missing) {
          g.fillStyle = d.g[i] === 3 || d.c[i] === 2 ? err : warn;
          g.fillRect(x - 1, lanes.diag, 3, missing && d.g[i] < 2 && d.c[i] !== 2 ? 4 : 10);
        }
      }
      if (this.selected >= 0 && known(d.t[this.selected])) {
        g.fillStyle = color("--link");
        g.fillRect(px(d.t[this.selected]) - 1, 0, 2, h);
        // The selected frame's request or answer: marked, and joined to it across the lanes.
        const pair = Math.abs(d.p[this.selected]) - 1;
        if (pair >= 0 && known(d.t[pair])) {
          const a = px(d.t[this.selected]), b = px(d.t[pair]);
          const lane = (f) => (d.k[f] === 0 ? lanes.reader : lanes.tag) + 9;
          g.strokeStyle = color("--link");
          g.lineWidth = 1.5;
          g.beginPath();
          g.moveTo(a, lane(this.selected));
          g.lineTo(b, lane(pair));
          g.stroke();
          g.fillRect(b - 1, lane(pair) - 11, 2, 22);
        }
      }
      this.axisInfo.textContent = `${micro(v0 - this.full[0])} – ${micro(v1 - this.full[0])} µs (${formatSpan(v1 - v0)} shown; wheel zooms, drag pans, double-click resets)`;
    }

    // ---- filter -----------------------------------------------------------------------------------
    applyFilter(text) {
      const match = compileFilter(text, this);
      if (!match) { this.visible = null; }
      else {
        const out = new Int32Array(this.n);
        let m = 0;
        for (let i = 0; i < this.n; i++) if (match(i)) out[m++] = i;
        this.visible = out.subarray(0, m);
      }
      this.viewport.scrollTop = 0;
      for (const row of (this.rows || new Map()).values()) row.remove();
      this.rows = new Map();
      this.layout();
    }
  }

  function findField(fields, key) {
    for (const f of fields) {
      if (f.key === key) return f;
      const inner = f.children ? findField(f.children, key) : null;
      if (inner) return inner;
    }
    return null;
  }

  // The pages or blocks the session summary lists, as rows of the memory map: every field whose
  // key ends in `memory.page` or `memory.block` and whose label names its number ("Page 0x04",
  // "Block 0x3C (trailer)", "Block 12"), grouped under the region that holds it (Type 2 regions,
  // Classic sectors, FeliCa services, ISO 15693's block list) or alone (SRx, iClass). The row's
  // bytes are the value's leading hex bytes, its offset in the session's memory image the number
  // times the row's size (FeliCa: within the service the region names).
  //
  // Where the summary says how far memory reaches, the pages and blocks no frame showed get rows
  // too, marked never seen: a Type 2 region's span ("user memory (0x04…0x81)"), a Classic
  // sector's blocks and, from the model (Mini, 1K, 2K, 4K), the sectors not listed at all, ISO
  // 15693's "k of N blocks known"; a FeliCa service does not say its size, so only the blocks
  // below the highest one read.
  function memoryRows(memory, tag) {
    const rows = [];
    const isRow = (f) => /memory\.(page|block)$/.test(f.key || "");
    const add = (child, region) => {
      const m = /^(?:Page|Block)\s+(0x[0-9A-F]+|\d+)/i.exec(child.label);
      if (!m) return false;
      const n = parseInt(m[1]);
      const bytes = [];
      for (const token of String(child.value || "").split(" ")) { if (/^([0-9A-F]{2}|\*\*)$/.test(token)) bytes.push(token); else break; }
      if (bytes.length === 0) return false;
      // FeliCa numbers blocks per service: the service code (from the region's title) is the space.
      const service = region && /^felica\./.test(region.key) ? /service ([0-9A-F]{4})/i.exec(region.label) : null;
      const space = service ? parseInt(service[1], 16) : -1;
      const first = !!region && !rows.some((r) => r.region === region);
      const rest = child.label.replace(/^(Page|Block)\s+\S+\s*/i, "");
      const suffix = String(child.value).split(" ").slice(bytes.length).join(" ").trim();
      const own = [rest, suffix].filter((x) => x).join(" · ");
      rows.push({ region, n, hex: /^0x/i.test(m[1]), bytes, space, offset: region && /^felica\./.test(region.key) && !service ? -1 : n * bytes.length,
        cls: regionClass(region && !/^mfc\./.test(region.key) ? region.label : child.label), own,
        note: [first ? `${region.label} — ${region.value}` : "", own].filter((x) => x).join(" · ") });
      return true;
    };
    // The numbers from..to that `region` covers, rows for those no frame showed.
    const fill = (region, from, to, size, hex, cls) => {
      if (to < from || to - from >= 4096) return;
      const at = rows.findIndex((r) => r.region === region);
      const mine = at < 0 ? [] : rows.splice(at);   // the region's rows are the last ones added
      const seen = new Set(mine.map((r) => r.n));
      const space = mine.length ? mine[0].space : -1;
      for (let n = from; n <= to; n++) {
        if (seen.has(n)) continue;
        mine.push({ region, n, hex, bytes: new Array(size).fill(""), space, offset: n * size, cls: cls(n), never: true, own: "" });
      }
      mine.sort((a, b) => a.n - b.n);
      mine.forEach((r, i) => { r.note = [i === 0 ? `${region.label} — ${region.value}` : "", r.own].filter((x) => x).join(" · "); });
      rows.push(...mine);
    };
    // A Classic sector's blocks; its last is the trailer, block 0 the manufacturer block.
    const fillSector = (region, sector) => {
      const [first, count] = classicSector(sector);
      fill(region, first, first + count - 1, 16, true, (n) => (n === first + count - 1 ? "r-trailer" : n === 0 ? "r-uid" : "r-user"));
    };
    const sectors = new Set();
    for (const f of memory) {
      if (isRow(f)) { add(f, null); continue; }
      for (const child of f.children || []) if (isRow(child)) add(child, f);
      let m;
      if (f.key === "memory.region" && (m = /\(0x([0-9A-F]+)(?:…0x([0-9A-F]+))?\)/i.exec(f.label))) {
        fill(f, parseInt(m[1], 16), parseInt(m[2] || m[1], 16), 4, true, () => regionClass(f.label));
      } else if (f.key === "mfc.memory.sector" && (m = /^Sector (\d+)/.exec(f.label))) {
        sectors.add(Number(m[1]));
        fillSector(f, Number(m[1]));
      } else if (f.key === "memory.blocks" && (m = / of (\d+) blocks/.exec(String(f.value))) && rows.some((r) => r.region === f)) {
        const size = rows.find((r) => r.region === f).bytes.length;
        fill(f, 0, Number(m[1]) - 1, size, false, () => "r-user");
      } else if (/^felica\./.test(f.key || "") && rows.some((r) => r.region === f && r.space >= 0)) {
        const mine = rows.filter((r) => r.region === f);
        fill(f, 0, Math.max(...mine.map((r) => r.n)), mine[0].bytes.length, false, () => mine[0].cls);
      }
      if (f.key === "memory.region" && !(f.children || []).length) {
        rows.push({ region: f, bytes: [], offset: -1, space: -1, cls: "r-other", note: `${f.label} — ${f.value}` });
      }
    }
    // A Classic card of known size: the sectors the summary does not list, never seen.
    const model = (tag || []).find((t) => t.key === "tag.model");
    const size = model && /MIFARE Classic (Mini|1K|2K|4K)/.exec(model.value);
    if (size && sectors.size) {
      const count = { Mini: 5, "1K": 16, "2K": 32, "4K": 40 }[size[1]];
      for (let sector = 0; sector < count; sector++) {
        if (sectors.has(sector)) continue;
        fillSector({ key: "mfc.memory.sector", label: `Sector ${sector}`, value: "never seen" }, sector);
      }
      // Sectors in card order.
      const sector = (r) => (r.region && r.region.key === "mfc.memory.sector" ? Number(/\d+/.exec(r.region.label)[0]) : -1);
      const classic = rows.filter((r) => sector(r) >= 0).sort((a, b) => sector(a) - sector(b) || a.n - b.n);
      const others = rows.filter((r) => sector(r) < 0);
      rows.length = 0;
      rows.push(...others, ...classic);
    }
    for (const r of rows) r.addr = r.n === undefined ? "" : r.hex ? "0x" + r.n.toString(16).toUpperCase().padStart(2, "0") : String(r.n);
    return rows;
  }

  // A Classic sector's first block and block count: 4 blocks each below sector 32, 16 above (4K).
  function classicSector(sector) {
    return sector < 32 ? [sector * 4, 4] : [128 + (sector - 32) * 16, 16];
  }

  function regionClass(label) {
    const l = label.toLowerCase();
    if (/trailer/.test(l)) return "r-trailer";
    if (/\block/.test(l)) return "r-lock";
    if (/\bcc\b|capability|attribute/.test(l)) return "r-cc";
    if (/uid|serial|manufacturer|header|idm/.test(l)) return "r-uid";
    if (/^block|^sector/.test(l)) return "r-user";
    if (/config|cfg|pwd|pack|password|counter|signature/.test(l)) return "r-config";
    if (/user|data|ndef|value|block|service/.test(l)) return "r-user";
    return "r-other";
  }

  function lowerBound(times, t, n) {
    let lo = 0, hi = n;
    while (lo < hi) { const m = (lo + hi) >> 1; if (times[m] < t) lo = m + 1; else hi = m; }
    return lo;
  }

  function formatSpan(tenths) {
    const us = tenths / 10;
    if (us >= 1e6) return (us / 1e6).toFixed(2) + " s";
    if (us >= 1e3) return (us / 1e3).toFixed(2) + " ms";
    return us.toFixed(1) + " µs";
  }

  // Filter expressions, joined by &&: crc.bad|ok|stripped; diag[.error|.warning|.note];
  // reader | tag | field; session == N; frame == N; KEY == VALUE, KEY != VALUE, KEY contains TEXT
  // or KEY alone (a field of the frame's tree); anything else is text searched in the number,
  // bytes, layer and annotation. Returns null for an empty filter, throws on a malformed one.
  function compileFilter(text, trace) {
    const terms = text.split("&&").map((s) => s.trim()).filter((s) => s.length);
    if (terms.length === 0) return null;
    const d = trace.d;
    const tests = terms.map((term) => {
      let m;
      if ((m = /^crc\.(bad|ok|stripped|unknown)$/i.exec(term))) { const want = { ok: 1, bad: 2, stripped: 3, unknown: 4 }[m[1].toLowerCase()]; return (i) => d.c[i] === want; }
      if ((m = /^diag(?:\.(note|warning|error))?$/i.exec(term))) { const min = m[1] ? SEVERITY[m[1].toLowerCase()] : 1; return (i) => d.g[i] >= min; }
      if (/^(reader|rdr)$/i.test(term)) return (i) => d.k[i] === 0;
      if (/^tag$/i.test(term)) return (i) => d.k[i] === 1;
      if (/^field$/i.test(term)) return (i) => d.k[i] === 2 || d.k[i] === 3;
      if ((m = /^session\s*==\s*(\d+)$/i.exec(term))) { const s = Number(m[1]); return (i) => d.n[i] === s; }
      if ((m = /^frame\s*==\s*(\d+)$/i.exec(term))) { const f = Number(m[1]) - 1; return (i) => i === f; }
      if ((m = /^([a-z0-9_-]+(?:\.[a-z0-9_-]+)+)\s*(==|!=|contains)\s*(.+)$/i.exec(term)) || (m = /^([a-z0-9_-]+(?:\.[a-z0-9_-]+)+)$/i.exec(term))) {
        const key = m[1].toLowerCase(), op = m[2], want = m[3] ? m[3].trim().replace(/^"(.*)"$/, "$1").toLowerCase() : null;
        const valueMatches = (v) => {
          v = String(v == null ? "" : v).toLowerCase();
          if (op === "contains") return v.includes(want);
          const eq = v === want || v.startsWith(want + " ") || v.startsWith(want + "(") || v.startsWith(want + ":") || v.startsWith(want + ",");
          return op === "!=" ? !eq : eq;
        };
        return (i) => {
          const obj = trace.detail(i);
          if (!obj) return false;
          let found = false, any = false;
          const walk = (fields) => {
            for (const f of fields) {
              if (found) return;
              if (f.key && (f.key.toLowerCase() === key || f.key.toLowerCase().endsWith("." + key))) {
                any = true;
                if (!op || (op !== "!=" && valueMatches(f.value))) { found = true; return; }
                if (op === "!=" && valueMatches(f.value)) { found = true; return; }
              }
              if (f.children) walk(f.children);
            }
          };
          walk(obj.fields || []);
          return op === "!=" ? any && found : found;
        };
      }
      const needle = term.toLowerCase(), compact = needle.replace(/\s+/g, "");
      const hexy = /^[0-9a-f ]+$/.test(needle);
      return (i) => {
        if (String(i + 1) === needle) return true;
        if (d.strings[d.s[i]].toLowerCase().includes(needle) || d.strings[d.l[i]].toLowerCase().includes(needle)) return true;
        return hexy && compact.length >= 2 && d.x[i].toLowerCase().includes(compact);
      };
    });
    return (i) => tests.every((t) => t(i));
  }

  // ---- replay results (replay --format html) ---------------------------------------------------------
  const VERDICT = { pass: "PASS", diverged: "FAIL", inexpressible: "SKIP", unreadable: "ERROR", "target-failed": "ERROR", "no-target": "ERROR" };

  // A field tree for comparison: fields whose key differs are marked.
  function diffTree(fields, keys) {
    const ul = el("ul", { class: "tree" });
    for (const f of fields || []) {
      const label = el("span", { class: keys.has(f.key) ? "f diff" : "f", "data-key": f.key || "" },
        el("span", { class: "label", text: f.label }), f.value != null && f.value !== "" ? `: ${f.value}` : "",
        el("span", { class: "key", text: f.key || "" }));
      const li = el("li", {}, label);
      if (f.children && f.children.length) li.append(diffTree(f.children, keys));
      ul.append(li);
    }
    return ul;
  }

  // Hex bytes, those that differ from the other side's at the same position marked.
  function diffHex(hex, other, label) {
    const row = el("div", { class: "hex", "aria-label": label });
    for (let i = 0; i < (hex || "").length / 2; i++) {
      const b = hex.substr(i * 2, 2);
      const differs = !other || other.substr(i * 2, 2) !== b;
      row.append(el("span", { class: differs ? "byte diff" : "byte", text: b }), " ");
    }
    if (!hex) row.append(el("span", { class: "help", text: "(no answer)" }));
    return row;
  }

  function replayView(results, openTrace) {
    const root = el("section", { class: "trace replay" });
    const passed = results.filter((r) => r.result === "pass").length;
    root.append(el("h2", { text: `Replay against ${results.length ? results[0].target : "?"}: ${passed} of ${results.length} passed` }));
    const table = el("table", { class: "verdicts", "aria-label": "verdicts" });
    table.append(el("tr", {}, ...["", "trace", "exchanges", "seconds", "result"].map((h) => el("th", { text: h }))));
    for (const r of results) {
      const name = el("a", { text: r.trace, tabindex: "0" });
      name.addEventListener("click", () => openTrace(r.trace, r.result === "diverged" ? r.frame : null));
      const what = r.result === "diverged" ? `first divergence at frame ${r.frame}: ${r.reason}`
        : r.result === "inexpressible" ? `${r.frames.length} frame(s) the target cannot express` : r.error || "";
      table.append(el("tr", { class: `verdict ${r.result}` }, el("td", { class: "v", text: VERDICT[r.result] || r.result }), el("td", {}, name),
        el("td", { text: String(r.exchanges) }), el("td", { text: String(r.seconds) }), el("td", { text: what })));
    }
    root.append(table);
    for (const r of results.filter((x) => x.result === "diverged")) {
      const keys = new Set((r.differences || []).map((d) => d.key));
      const block = el("div", { class: "divergence", "data-trace": r.trace });
      block.append(el("h3", { text: `${r.trace}, frame ${r.frame}: ${r.reason}` }));
      block.append(el("div", { class: "help", text: `request ${r.request_summary}` }), diffHex(r.sent || r.request, r.sent || r.request, "request"));
      const side = (title, hex, other, summary, frame) => el("div", { class: "side" }, el("h4", { text: title }),
        el("div", { text: summary || "" }), diffHex(hex, other, title), frame ? diffTree(frame.fields, keys) : el("div", { class: "empty", text: "no answer" }));
      block.append(el("div", { class: "sides" },
        side("recorded answer (expected)", r.recorded, r.actual, r.recorded_summary, r.recorded_frame),
        side("target's answer", r.actual, r.recorded, r.actual_summary, r.actual_frame)));
      if (r.differences && r.differences.length) {
        const diffs = el("table", { class: "differences", "aria-label": "differences" });
        diffs.append(el("tr", {}, ...["field", "recorded", "target", "accepted by"].map((h) => el("th", { text: h }))));
        for (const d of r.differences) {
          diffs.append(el("tr", { class: d.accepted_by ? "accepted" : "diff" }, el("td", { text: d.key }), el("td", { text: d.recorded ?? "—" }),
            el("td", { text: d.actual ?? "—" }), el("td", { text: d.accepted_by || "" })));
        }
        block.append(diffs);
      }
      root.append(block);
    }
    return root;
  }

  // ---- page -------------------------------------------------------------------------------------------
  function start() {
    const dataElements = [...document.querySelectorAll("script.nfctrace-data")];
    const traces = dataElements.map((e, i) => {
      const detail = document.querySelector(`script.nfctrace-detail[data-trace="${e.dataset.trace}"]`);
      return new Trace(JSON.parse(e.textContent), detail ? detail.textContent : "", i);
    });
    const filter = el("input", { id: "filter", type: "search", placeholder: "/ filter: text, crc.bad, ntag.command == READ, session == 1, diag.error", "aria-label": "filter", spellcheck: "false" });
    const count = el("span", { id: "count" });
    const tabs = el("nav", { class: "tabs", role: "tablist" });
    const header = el("header", {}, el("h1", { text: document.title }), tabs, filter, count,
      el("span", { class: "help", text: "j/k ↑/↓ frames · p request/answer · / filter · Esc" }));
    document.body.append(header);
    let current = null;
    let replay = null;
    const showCount = () => {
      if (!current) { count.textContent = ""; return; }
      const n = current.n, shown = current.count();
      count.textContent = shown === n ? `${n.toLocaleString("en-US")} frames` : `${shown.toLocaleString("en-US")} of ${n.toLocaleString("en-US")} frames`;
      count.dataset.shown = String(shown);
      count.dataset.total = String(n);
    };
    const activate = (t) => {
      current = t;
      if (replay) replay.classList.toggle("active", t === null);
      for (const x of traces) x.root.classList.toggle("active", x === t);
      for (const b of tabs.children) b.setAttribute("aria-selected", String(t === null ? b.dataset.trace === "replay" : Number(b.dataset.trace) === t.index));
      if (t === null) { showCount(); return; }
      t.layout();
      t.drawTimeline();
      if (filter.value) applyFilter();
      showCount();
    };
    for (const t of traces) {
      document.body.append(t.root);
      const b = el("button", { role: "tab", "data-trace": String(t.index), text: `${t.d.name} (${t.n.toLocaleString("en-US")})` });
      b.addEventListener("click", () => activate(t));
      tabs.append(b);
    }
    const replayData = document.querySelector("script.nfctrace-replay");
    if (replayData) {
      const results = JSON.parse(replayData.textContent);
      replay = replayView(results, (name, frame) => {
        const t = traces.find((x) => x.d.name === name || x.d.source === name || name.endsWith("/" + x.d.name));
        if (!t) return;
        activate(t);
        if (frame) t.select(frame - 1, true);
      });
      document.body.insertBefore(replay, traces.length ? traces[0].root : null);
      const passed = results.filter((r) => r.result === "pass").length;
      const b = el("button", { role: "tab", "data-trace": "replay", text: `Replay: ${passed}/${results.length} passed` });
      b.addEventListener("click", () => activate(null));
      tabs.prepend(b);
    }
    let timer = null;
    const applyFilter = () => {
      try { current.applyFilter(filter.value); filter.classList.remove("bad"); filter.title = ""; }
      catch (e) { filter.classList.add("bad"); filter.title = String(e.message || e); }
      showCount();
    };
    filter.addEventListener("input", () => { if (!current) return; clearTimeout(timer); timer = setTimeout(applyFilter, current && current.n > 200000 ? 300 : 80); });
    filter.addEventListener("keydown", (e) => {
      if (!current) return;
      if (e.key === "Enter") { clearTimeout(timer); applyFilter(); current.viewport.focus(); e.preventDefault(); }
      if (e.key === "Escape") { filter.blur(); current.viewport.focus(); }
    });
    document.addEventListener("keydown", (e) => {
      if (!current || e.target === filter || e.ctrlKey || e.metaKey || e.altKey) return;
      const page = Math.max(1, Math.floor(current.viewport.clientHeight / ROW) - 1);
      switch (e.key) {
        case "j": case "ArrowDown": current.move(1); break;
        case "k": case "ArrowUp": current.move(-1); break;
        case "PageDown": current.move(page); break;
        case "PageUp": current.move(-page); break;
        case "Home": current.move(-Infinity); break;
        case "End": case "G": current.move(Infinity); break;
        case "p": { const p = current.selected >= 0 ? current.d.p[current.selected] : 0; if (p) current.select(Math.abs(p) - 1, true); break; }
        case "/": filter.focus(); filter.select(); break;
        default: return;
      }
      e.preventDefault();
    });
    window.addEventListener("resize", () => { if (current) { current.layout(); current.drawTimeline(); } });
    // Printing: the virtual list holds only the rows in view, so the frames shown (up to
    // PRINT_ROWS) are laid out as a plain table for the printout and removed after it.
    const PRINT_ROWS = 5000;
    window.addEventListener("beforeprint", () => {
      if (!current) return;
      const d = current.d, n = Math.min(current.count(), PRINT_ROWS);
      const table = el("table", { class: "print-rows" });
      for (let i = 0; i < n; i++) {
        const f = current.at(i);
        table.append(el("tr", {}, el("td", { text: String(f + 1) }), el("td", { text: micro(d.t[f]) }), el("td", { text: SRC[d.k[f]] }),
          el("td", { class: "bytes", text: spaced(d.x[f]) }), el("td", { text: CRC[d.c[f]] }), el("td", { text: d.strings[d.s[f]] })));
      }
      if (current.count() > n) table.append(el("tr", {}, el("td", { colspan: "6", text: `… ${current.count() - n} more frames (the first ${n} printed)` })));
      current.viewport.after(table);
    });
    window.addEventListener("afterprint", () => { for (const t of document.querySelectorAll(".print-rows")) t.remove(); });
    if (replay) activate(null);
    else if (traces.length === 0) document.body.append(el("div", { class: "empty", text: "No trace." }));
    else activate(traces[0]);
    document.body.dataset.ready = "true";
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
