/* svg.h — a small SVG plot writer for the command-line tool.
 *
 * One plot: axes with "nice" ticks (1, 2, 5 x 10^k), tick labels, axis
 * labels, a title, and a legend (in the corner of the plot area that hides
 * the fewest data points); any number of series drawn in a fixed colour
 * cycle. Series styles:
 *   SVG_LINE     polyline through (x[i], y[i])
 *   SVG_STEP     staircase: y[i] holds from x[i] to x[i+1] (a PMF or CDF)
 *   SVG_STEMS    a vertical stem from 0 to y[i] at each x[i] (a sparse PMF)
 *   SVG_POINTS   a dot at each point
 *   SVG_BAND     the area between y[i] (lower) and y2[i] (upper), translucent
 *   SVG_ERRORBAR a vertical bar from y[i] to y2[i] with caps, at each x[i]
 * Lines and steps with more points than about four per pixel column are
 * reduced to each column's first, minimum, maximum and last values, which
 * draws the same picture with a bounded file size. Non-finite points are
 * skipped. The y axis may be logarithmic (y_log: ticks at powers of ten,
 * values <= 0 on the bottom edge). Several plots can be stacked in one file
 * as panels (svg_write_panels), e.g. a distribution's body and its tail.
 * The output is standalone SVG 1.1 that browsers render.
 *
 * Usage:
 *     svg_plot plot;  svg_series s[2];
 *     svg_plot_init(&plot);  plot.title = "...";  plot.xlabel = "time (ms)";
 *     svg_series_init(&s[0], "A", xs, ys, n, SVG_STEP);
 *     if (svg_write_file("out.svg", &plot, s, 2) != 0) ... errno says why
 */
#ifndef PROPER_CLI_SVG_H
#define PROPER_CLI_SVG_H

#include <stddef.h>
#include <stdio.h>

enum svg_style { SVG_LINE, SVG_STEP, SVG_STEMS, SVG_POINTS, SVG_BAND, SVG_ERRORBAR };

typedef struct svg_series {
    const char *label;      /* legend entry; NULL or "" leaves the series out of the legend */
    const double *x, *y;    /* n points */
    const double *y2;       /* upper values for SVG_BAND and SVG_ERRORBAR, else NULL */
    size_t n;
    enum svg_style style;
    const char *color;      /* CSS colour; NULL picks from the palette by position */
} svg_series;

typedef struct svg_plot {
    const char *title, *xlabel, *ylabel; /* may be NULL */
    int width, height;                   /* pixels (default 720 x 440) */
    double xmin, xmax, ymin, ymax;       /* axis ranges; NaN (default) fits the data */
    int y_from_zero;                     /* 1 (default): the fitted y range includes 0 */
    int y_log;                           /* 1: log10 y axis (default 0) */
} svg_plot;

/* One panel of a stacked figure. */
typedef struct svg_panel {
    const svg_plot *plot;
    const svg_series *series;
    size_t n_series;
} svg_panel;

void svg_plot_init(svg_plot *plot);
void svg_series_init(svg_series *s, const char *label, const double *x, const double *y, size_t n,
                     enum svg_style style);
/* Write the plot; 0 on success, -1 on a write error. */
int svg_write(FILE *f, const svg_plot *plot, const svg_series *series, size_t n_series);
/* Write to a file ("-" is stdout); 0 on success, -1 with errno set on failure. */
int svg_write_file(const char *path, const svg_plot *plot, const svg_series *series, size_t n_series);
/* Panels stacked top to bottom in one SVG, each at its plot's own size. */
int svg_write_panels(FILE *f, const svg_panel *panels, size_t n_panels);
int svg_write_panels_file(const char *path, const svg_panel *panels, size_t n_panels);

#endif
