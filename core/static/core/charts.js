// Draws every chart of a page from its embedded JSON (core/chartkit.py) with our
// own plotly.js, and offers each chart's data as a CSV download. No inline scripts, so
// the pages pass a content security policy with script-src 'self'.
//
// A chart narrower than the chart kit's phone width gets the figure's "phone"
// overrides (no mode bar over the title, a finger scrolls the page, hover text in one
// box inside the plot) and its title broken into lines that fit.
(function () {
  "use strict";

  var PHONE_WIDTH = 480;  // core/chartkit.py PHONE_WIDTH

  function csvCell(value) {
    var text = value === null || value === undefined ? "" : String(value);
    return /[",\n]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text;
  }

  // Plain objects merged one level deeper than Object.assign (layout.margin, hoverlabel).
  function merge(base, extra) {
    var out = Object.assign({}, base);
    Object.keys(extra || {}).forEach(function (key) {
      var value = extra[key];
      var mine = out[key];
      out[key] = value && mine && typeof value === "object" && typeof mine === "object" && !Array.isArray(value)
        ? merge(mine, value) : value;
    });
    return out;
  }

  // The title in lines of at most `room` characters (Plotly draws no wrapped titles).
  function wrapTitle(text, room) {
    var lines = [], line = "";
    text.split(" ").forEach(function (word) {
      if (line && (line + " " + word).length > room) { lines.push(line); line = word; }
      else line = line ? line + " " + word : word;
    });
    lines.push(line);
    return lines;
  }

  // Room for the title: the whole width on a phone (no mode bar there), else the width
  // less the mode bar's (about 130 px, top right, shown on hover).
  function fitted(figure, width) {
    var layout = figure.layout || {};
    var config = figure.config || {};
    var phone = width < PHONE_WIDTH && figure.phone;
    if (phone) {
      layout = merge(layout, figure.phone.layout);
      config = merge(config, figure.phone.config);
    }
    var title = layout.title && layout.title.text;
    if (title && title.indexOf("<br>") < 0) {
      var room = Math.max(16, Math.floor((width - (phone ? 20 : 150)) / 9));
      var lines = wrapTitle(title, room);
      if (lines.length > 1) {
        layout = merge(layout, {title: {text: lines.join("<br>")}});
        var top = (layout.margin && layout.margin.t) || 60;
        layout = merge(layout, {margin: {t: top + 22 * (lines.length - 1)}});
      }
    }
    return {layout: layout, config: config};
  }

  function draw(box) {
    var figureNode = document.getElementById(box.dataset.figure);
    var csvNode = document.getElementById(box.dataset.csv);
    if (!figureNode || typeof Plotly === "undefined") return;
    var figure = JSON.parse(figureNode.textContent);
    var width = box.clientWidth || window.innerWidth;
    var fit = fitted(figure, width);
    box.dataset.fit = width < PHONE_WIDTH ? "phone" : "wide";
    Plotly.newPlot(box, figure.data, fit.layout, fit.config);
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
