/* svg.c — the plot writer described in svg.h. */
#include "svg.h"

#include <errno.h>
#include <math.h>
#include <string.h>

static const char *const svg_palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                          "#9467bd", "#8c564b", "#e377c2", "#17becf"};
#define SVG_PALETTE_SIZE (sizeof svg_palette / sizeof svg_palette[0])

/* Plot area margins in pixels. */
#define SVG_LEFT 78
#define SVG_RIGHT 24
#define SVG_TOP 44
#define SVG_BOTTOM 58
#define SVG_MAX_TICKS 12

void svg_plot_init(svg_plot *plot) {
    memset(plot, 0, sizeof *plot);
    plot->width = 720;
    plot->height = 440;
    plot->xmin = plot->xmax = plot->ymin = plot->ymax = NAN;
    plot->y_from_zero = 1;
}

void svg_series_init(svg_series *s, const char *label, const double *x, const double *y, size_t n,
                     enum svg_style style) {
    memset(s, 0, sizeof *s);
    s->label = label;
    s->x = x;
    s->y = y;
    s->n = n;
    s->style = style;
}

/* The mapping from data to pixels. */
typedef struct svg_frame {
    double x0, x1, y0, y1;       /* data ranges (y in decades when ylog) */
    double left, right, top, bottom; /* pixel edges of the plot area */
    int ylog;                    /* y axis in log10: y0, y1 are exponents */
} svg_frame;

static double svg_px(const svg_frame *f, double x) { return f->left + (x - f->x0) / (f->x1 - f->x0) * (f->right - f->left); }
/* On a log axis a value <= 0 (or below the axis) sits on the bottom edge. */
static double svg_py(const svg_frame *f, double y) {
    if (f->ylog) y = y > 0.0 ? fmax(log10(y), f->y0) : f->y0;
    return f->bottom - (y - f->y0) / (f->y1 - f->y0) * (f->bottom - f->top);
}

static int svg_has_upper(const svg_series *s) { return (s->style == SVG_BAND || s->style == SVG_ERRORBAR) && s->y2; }

/* Data extent over all series; returns 0 when there is no finite point. */
static int svg_extent(const svg_series *series, size_t k, double *x0, double *x1, double *y0, double *y1) {
    size_t s, i;
    int any = 0;
    *x0 = *y0 = INFINITY;
    *x1 = *y1 = -INFINITY;
    for (s = 0; s < k; s++)
        for (i = 0; i < series[s].n; i++) {
            double x = series[s].x[i], y = series[s].y[i];
            if (!isfinite(x) || !isfinite(y)) continue;
            any = 1;
            *x0 = fmin(*x0, x);
            *x1 = fmax(*x1, x);
            *y0 = fmin(*y0, y);
            *y1 = fmax(*y1, y);
            if (svg_has_upper(&series[s]) && isfinite(series[s].y2[i])) {
                *y0 = fmin(*y0, series[s].y2[i]);
                *y1 = fmax(*y1, series[s].y2[i]);
            }
        }
    return any;
}

/* Smallest positive y of all series (for a log axis); INFINITY if none. */
static double svg_min_positive(const svg_series *series, size_t k) {
    size_t s, i;
    double m = INFINITY;
    for (s = 0; s < k; s++)
        for (i = 0; i < series[s].n; i++)
            if (isfinite(series[s].x[i]) && isfinite(series[s].y[i]) && series[s].y[i] > 0.0) m = fmin(m, series[s].y[i]);
    return m;
}

/* A "nice" tick step: 1, 2 or 5 times a power of ten, giving about 6 ticks. */
static double svg_nice_step(double span) {
    double raw = span / 6.0, mag = pow(10.0, floor(log10(raw))), f = raw / mag;
    return (f < 1.5 ? 1.0 : f < 3.5 ? 2.0 : f < 7.5 ? 5.0 : 10.0) * mag;
}

/* A degenerate range gets some room; then a tick step for [lo, hi]. Ticks
 * are the multiples of the step inside the range. */
static void svg_nice_range(double *lo, double *hi, double *step) {
    if (!(*hi > *lo)) {
        double pad = *lo != 0.0 ? fabs(*lo) * 0.5 : 1.0;
        *lo -= pad;
        *hi += pad;
    }
    *step = svg_nice_step(*hi - *lo);
}

/* First tick at or above lo. */
static double svg_first_tick(double lo, double step) { return ceil(lo / step - 1e-9) * step; }

static void svg_escape(FILE *f, const char *s) {
    for (; s && *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* Tick label: %g, with values within round-off of zero printed as 0. */
static void svg_tick_label(char *buf, size_t size, double v, double step) {
    if (fabs(v) < step * 1e-9) v = 0.0;
    snprintf(buf, size, "%.6g", v);
}

/* A y tick label: the value, or 10^v on a log axis. */
static void svg_ytick_label(const svg_frame *fr, char *buf, size_t size, double v, double step) {
    if (fr->ylog) snprintf(buf, size, "1e%d", (int)floor(v + 0.5));
    else svg_tick_label(buf, size, v, step);
}

/* Pixel row of a y tick at v (in decades on a log axis). */
static double svg_ytick_py(const svg_frame *fr, double v) { return fr->ylog ? svg_py(fr, pow(10.0, v)) : svg_py(fr, v); }

static void svg_axes(FILE *f, const svg_plot *plot, const svg_frame *fr, double xstep, double ystep) {
    double v;
    int t;
    char label[64];
    fprintf(f, "<g stroke=\"#e5e5e5\" stroke-width=\"1\">\n");
    for (v = svg_first_tick(fr->x0, xstep), t = 0; v <= fr->x1 + xstep * 1e-9 && t <= SVG_MAX_TICKS; v += xstep, t++)
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", svg_px(fr, v), fr->top, svg_px(fr, v), fr->bottom);
    for (v = svg_first_tick(fr->y0, ystep), t = 0; v <= fr->y1 + ystep * 1e-9 && t <= SVG_MAX_TICKS; v += ystep, t++)
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", fr->left, svg_ytick_py(fr, v), fr->right,
                svg_ytick_py(fr, v));
    fprintf(f, "</g>\n<g stroke=\"#333\" stroke-width=\"1\" fill=\"none\">\n");
    fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"/>\n", fr->left, fr->top, fr->right - fr->left,
            fr->bottom - fr->top);
    fprintf(f, "</g>\n<g font-family=\"sans-serif\" font-size=\"12\" fill=\"#333\">\n");
    for (v = svg_first_tick(fr->x0, xstep), t = 0; v <= fr->x1 + xstep * 1e-9 && t <= SVG_MAX_TICKS; v += xstep, t++) {
        svg_tick_label(label, sizeof label, v, xstep);
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#333\"/>", svg_px(fr, v), fr->bottom,
                svg_px(fr, v), fr->bottom + 5);
        fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">%s</text>\n", svg_px(fr, v), fr->bottom + 19, label);
    }
    for (v = svg_first_tick(fr->y0, ystep), t = 0; v <= fr->y1 + ystep * 1e-9 && t <= SVG_MAX_TICKS; v += ystep, t++) {
        svg_ytick_label(fr, label, sizeof label, v, ystep);
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#333\"/>", fr->left - 5,
                svg_ytick_py(fr, v), fr->left, svg_ytick_py(fr, v));
        fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\">%s</text>\n", fr->left - 8, svg_ytick_py(fr, v) + 4,
                label);
    }
    if (plot->xlabel) {
        fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" font-size=\"13\">", (fr->left + fr->right) / 2,
                (double)plot->height - 12);
        svg_escape(f, plot->xlabel);
        fputs("</text>\n", f);
    }
    if (plot->ylabel) {
        fprintf(f, "<text transform=\"translate(16,%.2f) rotate(-90)\" text-anchor=\"middle\" font-size=\"13\">",
                (fr->top + fr->bottom) / 2);
        svg_escape(f, plot->ylabel);
        fputs("</text>\n", f);
    }
    if (plot->title) {
        fprintf(f, "<text x=\"%.2f\" y=\"26\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">",
                (double)plot->width / 2);
        svg_escape(f, plot->title);
        fputs("</text>\n", f);
    }
    fputs("</g>\n", f);
}

/* Emit a point of a polyline, clamped to a sane pixel range. */
static void svg_vertex(FILE *f, double px, double py) {
    px = fmax(-1e5, fmin(1e5, px));
    py = fmax(-1e5, fmin(1e5, py));
    fprintf(f, "%.2f,%.2f ", px, py);
}

/* Lines and steps: either every point, or per pixel column the first,
 * minimum, maximum and last value (in x order within the column). */
static void svg_polyline(FILE *f, const svg_frame *fr, const svg_series *s, const char *color) {
    size_t i, n_cols = (size_t)(fr->right - fr->left) + 1;
    int reduce = s->n > 4 * n_cols;
    double prev_py = NAN;
    fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\" stroke-linejoin=\"round\" points=\"", color);
    for (i = 0; i < s->n;) {
        double x = s->x[i], y = s->y[i];
        if (!isfinite(x) || !isfinite(y)) { i++; continue; }
        if (reduce) {
            /* gather one pixel column */
            long col = (long)floor(svg_px(fr, x));
            double first = y, last = y, lo = y, hi = y, px = svg_px(fr, x);
            size_t j = i + 1;
            while (j < s->n && isfinite(s->x[j]) && (long)floor(svg_px(fr, s->x[j])) == col) {
                if (isfinite(s->y[j])) {
                    last = s->y[j];
                    lo = fmin(lo, last);
                    hi = fmax(hi, last);
                }
                j++;
            }
            if (s->style == SVG_STEP && isfinite(prev_py)) svg_vertex(f, px, prev_py);
            svg_vertex(f, px, svg_py(fr, first));
            svg_vertex(f, px, svg_py(fr, lo));
            svg_vertex(f, px, svg_py(fr, hi));
            svg_vertex(f, px, svg_py(fr, last));
            prev_py = svg_py(fr, last);
            i = j;
        } else {
            double px = svg_px(fr, x), py = svg_py(fr, y);
            if (s->style == SVG_STEP) {
                if (isfinite(prev_py)) svg_vertex(f, px, prev_py);
                svg_vertex(f, px, py);
                /* the last step extends one spacing to the right */
                if (i + 1 == s->n && i > 0) svg_vertex(f, svg_px(fr, x + (x - s->x[i - 1])), py);
            } else {
                svg_vertex(f, px, py);
            }
            prev_py = py;
            i++;
        }
    }
    fputs("\"/>\n", f);
}

static void svg_draw_series(FILE *f, const svg_frame *fr, const svg_series *s, const char *color) {
    size_t i;
    double zero = svg_py(fr, fmax(fr->y0, fmin(fr->y1, 0.0)));
    switch (s->style) {
    case SVG_LINE:
    case SVG_STEP:
        svg_polyline(f, fr, s, color);
        break;
    case SVG_STEMS:
        fprintf(f, "<g stroke=\"%s\" stroke-width=\"1.4\">\n", color);
        for (i = 0; i < s->n; i++)
            if (isfinite(s->x[i]) && isfinite(s->y[i]))
                fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", svg_px(fr, s->x[i]), zero,
                        svg_px(fr, s->x[i]), svg_py(fr, s->y[i]));
        fputs("</g>\n", f);
        break;
    case SVG_POINTS:
        fprintf(f, "<g fill=\"%s\">\n", color);
        for (i = 0; i < s->n; i++)
            if (isfinite(s->x[i]) && isfinite(s->y[i]))
                fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"3\"/>\n", svg_px(fr, s->x[i]), svg_py(fr, s->y[i]));
        fputs("</g>\n", f);
        break;
    case SVG_BAND:
        if (!s->y2) break;
        fprintf(f, "<polygon fill=\"%s\" fill-opacity=\"0.25\" stroke=\"none\" points=\"", color);
        for (i = 0; i < s->n; i++)
            if (isfinite(s->x[i]) && isfinite(s->y2[i])) svg_vertex(f, svg_px(fr, s->x[i]), svg_py(fr, s->y2[i]));
        for (i = s->n; i-- > 0;)
            if (isfinite(s->x[i]) && isfinite(s->y[i])) svg_vertex(f, svg_px(fr, s->x[i]), svg_py(fr, s->y[i]));
        fputs("\"/>\n", f);
        break;
    case SVG_ERRORBAR:
        if (!s->y2) break;
        fprintf(f, "<g stroke=\"%s\" stroke-width=\"1.6\">\n", color);
        for (i = 0; i < s->n; i++) {
            double px;
            if (!isfinite(s->x[i]) || !isfinite(s->y[i]) || !isfinite(s->y2[i])) continue;
            px = svg_px(fr, s->x[i]);
            fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>", px, svg_py(fr, s->y[i]), px,
                    svg_py(fr, s->y2[i]));
            fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>", px - 5, svg_py(fr, s->y[i]), px + 5,
                    svg_py(fr, s->y[i]));
            fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", px - 5, svg_py(fr, s->y2[i]), px + 5,
                    svg_py(fr, s->y2[i]));
        }
        fputs("</g>\n", f);
        break;
    }
}

/* Number of data points of all series inside the pixel box [x0,x1]x[y0,y1]
 * (every 8th point of long series, which is enough to judge clutter). */
static size_t svg_points_in(const svg_frame *fr, const svg_series *series, size_t k, double x0, double x1, double y0,
                            double y1) {
    size_t s, i, hits = 0;
    for (s = 0; s < k; s++) {
        size_t stride = series[s].n > 4000 ? 8 : 1;
        for (i = 0; i < series[s].n; i += stride) {
            double px = svg_px(fr, series[s].x[i]), py = svg_py(fr, series[s].y[i]);
            if (px >= x0 && px <= x1 && py >= y0 && py <= y1) hits++;
            if (svg_has_upper(&series[s])) {
                py = svg_py(fr, series[s].y2[i]);
                if (px >= x0 && px <= x1 && py >= y0 && py <= y1) hits++;
            }
        }
    }
    return hits;
}

/* The legend goes in the corner of the plot area that covers the fewest
 * data points (top right on ties). */
static void svg_legend(FILE *f, const svg_frame *fr, const svg_series *series, size_t k) {
    size_t s, shown = 0, longest = 0, best_hits = (size_t)-1;
    double w, h, x = 0, y = 0;
    int corner;
    for (s = 0; s < k; s++)
        if (series[s].label && series[s].label[0]) {
            shown++;
            if (strlen(series[s].label) > longest) longest = strlen(series[s].label);
        }
    if (!shown) return;
    w = 34 + 7.0 * (double)longest;
    h = 8 + 18.0 * (double)shown;
    for (corner = 0; corner < 4; corner++) { /* top right, top left, bottom right, bottom left */
        double cx = corner % 2 == 0 ? fr->right - 10 - w : fr->left + 10;
        double cy = corner < 2 ? fr->top + 10 : fr->bottom - 10 - h;
        size_t hits = svg_points_in(fr, series, k, cx, cx + w, cy, cy + h);
        if (hits < best_hits) {
            best_hits = hits;
            x = cx;
            y = cy;
        }
    }
    fprintf(f, "<g font-family=\"sans-serif\" font-size=\"12\">\n");
    fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"white\" fill-opacity=\"0.85\" stroke=\"#999\"/>\n",
            x, y, w, h);
    for (s = 0, shown = 0; s < k; s++) {
        const char *color = series[s].color ? series[s].color : svg_palette[s % SVG_PALETTE_SIZE];
        double ly = y + 14 + 18.0 * (double)shown;
        if (!series[s].label || !series[s].label[0]) continue;
        if (series[s].style == SVG_BAND)
            fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"18\" height=\"10\" fill=\"%s\" fill-opacity=\"0.25\"/>", x + 6,
                    ly - 9, color);
        else
            fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" stroke-width=\"2.5\"/>", x + 6,
                    ly - 4, x + 24, ly - 4, color);
        fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" fill=\"#333\">", x + 30, ly);
        svg_escape(f, series[s].label);
        fputs("</text>\n", f);
        shown++;
    }
    fputs("</g>\n", f);
}

/* The y range of a log axis: whole decades around the positive values
 * (ymin/ymax of the plot, when set, are values, not exponents). */
static void svg_log_range(const svg_plot *plot, const svg_series *series, size_t n_series, double dy1, svg_frame *fr,
                          double *ystep) {
    double lo = isnan(plot->ymin) ? svg_min_positive(series, n_series) : plot->ymin;
    double hi = isnan(plot->ymax) ? dy1 : plot->ymax;
    if (!(lo > 0.0) || !isfinite(lo)) lo = 1e-6;
    if (!(hi > lo)) hi = lo * 10.0;
    fr->y0 = floor(log10(lo));
    fr->y1 = ceil(log10(hi));
    if (fr->y1 <= fr->y0) fr->y1 = fr->y0 + 1.0;
    *ystep = ceil((fr->y1 - fr->y0) / SVG_MAX_TICKS);
}

/* Fit the frame of one plot to its series. */
static void svg_fit(const svg_plot *plot, const svg_series *series, size_t n_series, svg_frame *fr, double *xstep,
                    double *ystep) {
    double dx0, dx1, dy0, dy1;
    if (!svg_extent(series, n_series, &dx0, &dx1, &dy0, &dy1)) {
        dx0 = dy0 = 0.0;
        dx1 = dy1 = 1.0;
    }
    fr->ylog = plot->y_log;
    if (plot->y_from_zero && !plot->y_log) {
        dy0 = fmin(dy0, 0.0);
        dy1 = fmax(dy1, 0.0);
    }
    /* a little room so that no point touches the frame */
    if (dy1 > dy0) dy1 += 0.04 * (dy1 - dy0);
    if (dx1 > dx0) {
        double pad = 0.02 * (dx1 - dx0);
        dx0 -= pad;
        dx1 += pad;
    }
    fr->x0 = isnan(plot->xmin) ? dx0 : plot->xmin;
    fr->x1 = isnan(plot->xmax) ? dx1 : plot->xmax;
    svg_nice_range(&fr->x0, &fr->x1, xstep);
    if (plot->y_log) {
        svg_log_range(plot, series, n_series, dy1, fr, ystep);
    } else {
        fr->y0 = isnan(plot->ymin) ? dy0 : plot->ymin;
        fr->y1 = isnan(plot->ymax) ? dy1 : plot->ymax;
        svg_nice_range(&fr->y0, &fr->y1, ystep);
    }
    fr->left = SVG_LEFT;
    fr->right = (double)plot->width - SVG_RIGHT;
    fr->top = SVG_TOP;
    fr->bottom = (double)plot->height - SVG_BOTTOM;
}

/* Everything of one plot inside its frame, clipped by the clip path `clip`. */
static void svg_body(FILE *f, const svg_plot *plot, const svg_series *series, size_t n_series, const char *clip) {
    svg_frame fr;
    double xstep, ystep;
    size_t s;
    svg_fit(plot, series, n_series, &fr, &xstep, &ystep);
    svg_axes(f, plot, &fr, xstep, ystep);
    fprintf(f, "<defs><clipPath id=\"%s\"><rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"/></clipPath></defs>\n",
            clip, fr.left, fr.top, fr.right - fr.left, fr.bottom - fr.top);
    fprintf(f, "<g clip-path=\"url(#%s)\">\n", clip);
    /* bands first so that lines stay visible on top */
    for (s = 0; s < n_series; s++)
        if (series[s].style == SVG_BAND)
            svg_draw_series(f, &fr, &series[s], series[s].color ? series[s].color : svg_palette[s % SVG_PALETTE_SIZE]);
    for (s = 0; s < n_series; s++)
        if (series[s].style != SVG_BAND)
            svg_draw_series(f, &fr, &series[s], series[s].color ? series[s].color : svg_palette[s % SVG_PALETTE_SIZE]);
    fputs("</g>\n", f);
    svg_legend(f, &fr, series, n_series);
}

static void svg_header(FILE *f, int width, int height) {
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n",
            width, height, width, height);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
}

int svg_write(FILE *f, const svg_plot *plot, const svg_series *series, size_t n_series) {
    svg_header(f, plot->width, plot->height);
    svg_body(f, plot, series, n_series, "plot-area");
    fputs("</svg>\n", f);
    return ferror(f) ? -1 : 0;
}

int svg_write_panels(FILE *f, const svg_panel *panels, size_t n_panels) {
    int width = 0, height = 0;
    size_t k;
    char clip[32];
    for (k = 0; k < n_panels; k++) {
        if (panels[k].plot->width > width) width = panels[k].plot->width;
        height += panels[k].plot->height;
    }
    svg_header(f, width, height);
    for (k = 0, height = 0; k < n_panels; k++) {
        snprintf(clip, sizeof clip, "plot-area-%lu", (unsigned long)k);
        fprintf(f, "<g transform=\"translate(0,%d)\">\n", height);
        svg_body(f, panels[k].plot, panels[k].series, panels[k].n_series, clip);
        fputs("</g>\n", f);
        height += panels[k].plot->height;
    }
    fputs("</svg>\n", f);
    return ferror(f) ? -1 : 0;
}

int svg_write_panels_file(const char *path, const svg_panel *panels, size_t n_panels) {
    FILE *f;
    int rc, saved;
    if (strcmp(path, "-") == 0) return svg_write_panels(stdout, panels, n_panels);
    f = fopen(path, "w");
    if (!f) return -1;
    rc = svg_write_panels(f, panels, n_panels);
    saved = errno;
    if (fclose(f) != 0) rc = -1;
    else errno = saved;
    return rc;
}

int svg_write_file(const char *path, const svg_plot *plot, const svg_series *series, size_t n_series) {
    FILE *f;
    int rc, saved;
    if (strcmp(path, "-") == 0) return svg_write(stdout, plot, series, n_series);
    f = fopen(path, "w");
    if (!f) return -1;
    rc = svg_write(f, plot, series, n_series);
    saved = errno;
    if (fclose(f) != 0) rc = -1;
    else errno = saved;
    return rc;
}
