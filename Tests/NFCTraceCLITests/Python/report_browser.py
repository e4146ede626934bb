"""Opens nfctrace reports in headless Chromium (selenium + chromedriver) and acts on them as a
user would, for ReportTests: prints one JSON object per report on stdout.

usage: report_browser.py [--screenshots DIR [--only NAME.html,…]] [--scroll-end] REPORT.html...
       report_browser.py --replay REPORT.html...      (replay --format html reports)
       report_browser.py --print REPORT.html...       (the printout)

Per report: load seconds, console messages (errors and warnings), the frame count the page
shows, rows drawn, and for the data frame with the largest field tree among the rows drawn: the field tree shown after a click
on its row, and for every field with a byte range whose bytes are visible: the byte indexes
highlighted after a click on it (they must be exactly its range), and the field a click on each
byte selects. Then: the memory map's text; the frame the memory map names for the first byte
read or written, selected by a click (with its dissection's memory access); and the count after typing a filter (crc.ok; and the
key of the frame's first field, ==, its first value word). --scroll-end presses End and reports
the last row drawn and the time it took. Screenshots: DIR/<report name>.png (the window after the
clicks), of the reports --only names (default all).
"""
import json, os, sys, time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


def browser():
    o = webdriver.ChromeOptions()
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,900", "--disable-dev-shm-usage",
              "--force-prefers-reduced-motion", "--js-flags=--max-old-space-size=4096"]:
        o.add_argument(a)
    o.binary_location = os.environ.get("NFCTRACE_CHROMIUM", "/usr/bin/chromium")
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(os.environ.get("NFCTRACE_CHROMEDRIVER", "/usr/bin/chromedriver")), options=o)


def active(d, css):
    return d.find_elements(By.CSS_SELECTOR, ".trace.active " + css)


def check(d, path, shots, only, scroll_end):
    out = {"report": os.path.basename(path)}
    start = time.monotonic()
    d.get("file://" + os.path.abspath(path))
    while d.execute_script("return document.body.dataset.ready") != "true" and time.monotonic() - start < 120:
        time.sleep(0.05)
    out["load_seconds"] = round(time.monotonic() - start, 3)
    # The first contentful paint follows the page script's work: waited for (up to 10 s).
    while time.monotonic() - start < out["load_seconds"] + 10 and not d.execute_script(
            "return performance.getEntriesByName('first-contentful-paint').length"):
        time.sleep(0.02)
    # What the page shows, in one round trip (each driver command costs ~10 ms); and the data
    # frame with the largest field tree among the rows drawn, found from the page's own data, to
    # be clicked as a user would.
    state = d.execute_script("""
        const p = performance.getEntriesByName('first-contentful-paint')[0];
        const count = document.getElementById('count');
        const trace = document.querySelector('.trace.active').dataset.trace;
        const text = document.querySelector(`script.nfctrace-detail[data-trace="${trace}"]`).textContent.split('\\n');
        const drawn = [...document.querySelectorAll('.trace.active .row.reader, .trace.active .row.tag')].map(r => Number(r.dataset.frame));
        const size = (fields) => fields.reduce((n, f) => n + 1 + size(f.children || []), 0);
        let frame = null, most = 0;
        for (const f of drawn) {
            if (f >= text.length || !text[f]) continue;
            const n = size(JSON.parse(text[f]).fields || []);
            if (n > most) { frame = f; most = n; }
        }
        return {first_paint_ms: p ? p.startTime : null,
                heap_mb: performance.memory ? performance.memory.usedJSHeapSize / 1048576 : null,
                count_text: count.textContent, total: Number(count.dataset.total), shown: Number(count.dataset.shown),
                rows_drawn: document.querySelectorAll('.trace.active .row').length, frame};""")
    clicked = state.pop("frame")
    out.update(state)
    if clicked is not None:
        # Rows are redrawn on every selection: the row is found by its frame number.
        active(d, f'.row[data-frame="{clicked}"]')[0].click()
        out["clicked_frame"] = clicked + 1
        fields = active(d, ".detail .tree .f")
        out["fields_shown"] = len(fields)
        # The first field with a range clicked through the driver (a real pointer click); then
        # every field and every byte of the first bytes row clicked from the page (element.click(),
        # the same DOM events, in one round trip).
        for f in fields:
            if f.find_elements(By.CSS_SELECTOR, ".range"):
                f.click()
                out["native_field_highlight"] = sorted(int(e.get_attribute("data-i")) for e in active(d, ".detail .hex .byte.hl"))
                break
        checks = d.execute_script("""
            const pane = document.querySelector('.trace.active .detail');
            const bytes = pane.querySelector('.hex').querySelectorAll('.byte');
            const rangeOf = (f) => { const r = f.querySelector('.range'); return r ? r.textContent.slice(1, -1).split('…').map(Number) : null; };
            const highlighted = () => [...new Set([...pane.querySelector('.hex').querySelectorAll('.byte.hl')].map(b => Number(b.dataset.i)))].sort((a, b) => a - b);
            const fields = [];
            for (const f of pane.querySelectorAll('.tree .f')) {
                const range = rangeOf(f);
                if (!range || range[1] > bytes.length) continue;
                f.click();
                fields.push({key: f.dataset.key, range, highlighted: highlighted()});
            }
            const byteChecks = [];
            for (const b of bytes) {
                b.click();
                const sel = pane.querySelector('.tree .f.hl');
                byteChecks.push({byte: Number(b.dataset.i), field_range: sel ? rangeOf(sel) : null});
            }
            const first = pane.querySelector('.tree .f');
            return [fields, byteChecks, first.dataset.key, first.dataset.value];""")
        out["field_checks"], out["byte_checks"], first_key, first_value = checks
        value = (first_value or "").split(" ")[0]
        out["filter_key"] = f"{first_key} == {value}" if value else first_key
    memory = active(d, ".memory")
    out["memory_text"] = memory[0].text if memory else ""
    out["memory_cells"] = d.execute_script("""
        const g = document.querySelector('.trace.active .memgrid');
        return g ? {read: g.querySelectorAll('.cell.read').length, written: g.querySelectorAll('.cell.written').length,
                    never: g.querySelectorAll('.cell.never').length} : null;""")
    # The window after the clicks on a frame and its fields, before the memory map is clicked.
    if shots and (not only or os.path.basename(path) in only):
        os.makedirs(shots, exist_ok=True)
        d.save_screenshot(os.path.join(shots, os.path.basename(path).replace(".html", ".png")))
    # Memory map → frames: the first byte some frame read or wrote, then the first frame named.
    out["memory_link"] = d.execute_script("""
        const t = document.querySelector('.trace.active');
        // A written byte if one of the first 50 sessions has one (its session line clicked),
        // else a read one.
        const sessions = [...t.querySelectorAll('.session')].slice(0, 50);
        let cell = null;
        for (const s of sessions) {
            s.click();
            cell = t.querySelector('.memgrid .cell.written');
            if (cell) break;
        }
        if (!cell) for (const s of sessions) {
            s.click();
            cell = t.querySelector('.memgrid .cell.read');
            if (cell) break;
        }
        if (!cell) return null;
        cell.click();
        const link = t.querySelector('.memory .access a');
        if (!link) return {offset: Number(cell.dataset.offset), frame: null};
        const written = cell.classList.contains('written');
        (written ? [...t.querySelectorAll('.memory .access a')].find(a => a.textContent.startsWith('written')) || link : link).click();
        const sel = t.querySelector('.row.sel');
        const frame = sel ? Number(sel.dataset.frame) : null;
        const text = document.querySelector(`script.nfctrace-detail[data-trace="${t.dataset.trace}"]`).textContent.split('\\n');
        return {offset: Number(cell.dataset.offset), written, frame: frame === null ? null : frame + 1,
                memory: frame !== null && text[frame] ? JSON.parse(text[frame]).memory || null : null};""")
    # Filters narrow the list: the first typed into the box (Enter applies at once), the others
    # set from the page with the same Enter key event.
    box = d.find_element(By.ID, "filter")
    box.clear()
    box.send_keys("tag" + Keys.ENTER)
    filters = {"tag": int(d.find_element(By.ID, "count").get_attribute("data-shown"))}
    filters.update(d.execute_script("""
        const box = document.getElementById('filter'), out = {};
        for (const e of arguments[0]) {
            box.value = e;
            box.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true}));
            out[e] = Number(document.getElementById('count').dataset.shown);
        }
        box.value = '';
        box.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true}));
        return out;""", [e for e in ["crc.ok", out.get("filter_key")] if e]))
    out["filters"] = filters
    if scroll_end:
        viewport = active(d, ".viewport")[0]
        viewport.click()
        t = time.monotonic()
        d.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
        last = None
        while time.monotonic() - t < 60:
            sel = active(d, ".row.sel")
            if sel:
                last = int(sel[0].get_attribute("data-frame")) + 1
                if last == out["total"]:
                    break
            time.sleep(0.02)
        out["scroll_end_seconds"] = round(time.monotonic() - t, 3)
        out["last_row"] = last
    out["console"] = [{"level": m["level"], "message": m["message"]} for m in d.get_log("browser") if m["level"] in ("SEVERE", "WARNING")]
    return out


def check_replay(d, path):
    """A replay --format html report: the verdicts, the divergences side by side, and a click on
    a diverged trace's name, which opens its tab at the divergence."""
    d.get("file://" + os.path.abspath(path))
    start = time.monotonic()
    while d.execute_script("return document.body.dataset.ready") != "true" and time.monotonic() - start < 120:
        time.sleep(0.05)
    out = {"report": os.path.basename(path)}
    out.update(d.execute_script("""
        const r = document.querySelector('.replay.active');
        return {replay_active: !!r,
                verdicts: [...document.querySelectorAll('.verdicts tr.verdict')].map(t => [t.querySelector('.v').textContent, t.querySelector('a').textContent]),
                divergences: document.querySelectorAll('.divergence').length,
                diff_bytes: document.querySelectorAll('.divergence .hex .byte.diff').length,
                diff_fields: [...document.querySelectorAll('.divergence .tree .f.diff')].map(f => f.dataset.key),
                difference_rows: document.querySelectorAll('.differences tr.diff, .differences tr.accepted').length};"""))
    links = d.find_elements(By.CSS_SELECTOR, ".verdicts tr.diverged a")
    if links:
        links[0].click()
        out["after_click"] = d.execute_script("""
            const t = document.querySelector('.trace.active');
            const sel = t ? t.querySelector('.row.sel') : null;
            return {tab: document.querySelector('.tabs button[aria-selected="true"]').textContent,
                    selected_frame: sel ? Number(sel.dataset.frame) + 1 : null};""")
    out["console"] = [{"level": m["level"], "message": m["message"]} for m in d.get_log("browser") if m["level"] in ("SEVERE", "WARNING")]
    return out


def check_print(d, path):
    """Printing: the rows laid out for the printout, and the PDF Chromium prints."""
    d.get("file://" + os.path.abspath(path))
    start = time.monotonic()
    while d.execute_script("return document.body.dataset.ready") != "true" and time.monotonic() - start < 120:
        time.sleep(0.05)
    out = {"report": os.path.basename(path)}
    out["print_rows"] = d.execute_script(
        "window.dispatchEvent(new Event('beforeprint')); return document.querySelectorAll('.print-rows tr').length;")
    pdf = d.print_page()
    out["pdf_bytes"] = len(pdf) * 3 // 4
    out["rows_after"] = d.execute_script(
        "window.dispatchEvent(new Event('afterprint')); return document.querySelectorAll('.print-rows').length;")
    out["console"] = [{"level": m["level"], "message": m["message"]} for m in d.get_log("browser") if m["level"] in ("SEVERE", "WARNING")]
    return out


def main():
    args = sys.argv[1:]
    shots, only = None, None
    if "--screenshots" in args:
        i = args.index("--screenshots")
        shots = args[i + 1]
        del args[i:i + 2]
    if "--only" in args:
        i = args.index("--only")
        only = set(args[i + 1].split(","))
        del args[i:i + 2]
    scroll_end = "--scroll-end" in args
    replay = "--replay" in args
    printing = "--print" in args
    args = [a for a in args if a not in ("--scroll-end", "--replay", "--print")]
    d = browser()
    try:
        for path in args:
            result = check_replay(d, path) if replay else check_print(d, path) if printing else check(d, path, shots, only, scroll_end)
            print(json.dumps(result), flush=True)
    finally:
        d.quit()


if __name__ == "__main__":
    main()
