// Draws every chart of the page from its json_script data (templates include
// analytics/_chart.html) and adds a "Download the data (CSV)" link under each chart
// that has data rows. Loaded with defer after plotly.min.js.
(function () {
  "use strict";

  function cell(value) {
    if (value === null || value === undefined) return "";
    let text = String(value);
    // A spreadsheet would run a text cell starting like a formula.
    if (typeof value === "string" && /^[=+\-@]/.test(text)) text = "'" + text;
    return /[",\r\n]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text;
  }

  function csvText(rows) {
    return rows.map((row) => row.map(cell).join(",")).join("\r\n") + "\r\n";
  }

  function readJson(id) {
    const element = id && document.getElementById(id);
    return element ? JSON.parse(element.textContent) : null;
  }

  function downloadLink(box) {
    const rows = readJson(box.dataset.csvId);
    if (!rows || rows.length < 2) return;
    const link = document.createElement("a");
    link.className = "chart-csv";
    link.href = URL.createObjectURL(new Blob([csvText(rows)], {type: "text/csv;charset=utf-8"}));
    link.download = box.dataset.csvName || "data.csv";
    link.textContent = "Download the data (CSV)";
    const line = document.createElement("p");
    line.append(link);
    box.after(line);
  }

  function draw(box) {
    if (box.dataset.drawn) return;
    box.dataset.drawn = "1";
    const figure = readJson(box.dataset.figureId) || {};
    window.Plotly.newPlot(box, figure.data || [], figure.layout || {},
      {responsive: true, displaylogo: false});
    downloadLink(box);
  }

  document.querySelectorAll("div.chart[data-figure-id]").forEach(draw);
})();
