// Draws every chart of a page from its embedded JSON (core/chartkit.py) with our
// own plotly.js, and offers each chart's data as a CSV download. No inline scripts, so
// the pages pass a content security policy with script-src 'self'.
(function () {
  "use strict";

  function csvCell(value) {
    var text = value === null || value === undefined ? "" : String(value);
    return /[",\n]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text;
  }

  function draw(box) {
    var figureNode = document.getElementById(box.dataset.figure);
    var csvNode = document.getElementById(box.dataset.csv);
    if (!figureNode || typeof Plotly === "undefined") return;
    var figure = JSON.parse(figureNode.textContent);
    Plotly.newPlot(box, figure.data, figure.layout, {
      responsive: true,
      displaylogo: false,
      modeBarButtonsToRemove: ["lasso2d", "select2d"],
    });
    var link = box.parentNode.querySelector(".csv-link");
    if (csvNode && link) {
      var rows = JSON.parse(csvNode.textContent);
      var text = rows.map(function (row) { return row.map(csvCell).join(","); }).join("\n") + "\n";
      link.href = URL.createObjectURL(new Blob([text], { type: "text/csv" }));
      link.download = box.dataset.csvName || "chart.csv";
      link.hidden = false;
    }
  }

  function drawAll() {
    document.querySelectorAll("div.chart[data-figure]").forEach(draw);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", drawAll);
  } else {
    drawAll();
  }
})();
