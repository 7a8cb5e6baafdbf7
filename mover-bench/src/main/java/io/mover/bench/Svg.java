package io.mover.bench;

import java.util.List;
import java.util.Locale;

/**
 * The two charts the HTML report needs, as inline SVG: lines over a numeric x axis, and grouped bars
 * over categories. Inline so that the report is one file that needs no network and no script to show.
 * Colours come from {@link #PALETTE}, which the rendering test looks for in the screenshot.
 */
final class Svg {
    /** Series colours, saturated so that they cannot be mistaken for the page's greys. */
    static final List<String> PALETTE = List.of("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b");
    private static final int WIDTH = 720;
    private static final int HEIGHT = 300;
    private static final int LEFT = 70;
    private static final int RIGHT = 150;
    private static final int TOP = 30;
    private static final int BOTTOM = 40;

    /** One named series of values, one per x (or category). */
    record Series(String name, List<Double> values) {}

    private Svg() {}

    static String lines(String title, String xLabel, String yLabel, List<Double> xs, List<Series> series) {
        return lines(title, xLabel, yLabel, xs, xs.stream().map(Svg::number).toList(), series);
    }

    /** As above, with {@code labels} under the x positions (a log scale shows its real values). */
    static String lines(String title, String xLabel, String yLabel, List<Double> xs, List<String> labels, List<Series> series) {
        double xMax = xs.stream().mapToDouble(Double::doubleValue).max().orElse(1);
        double xMin = xs.stream().mapToDouble(Double::doubleValue).min().orElse(0);
        double yMax = niceMax(series);
        StringBuilder svg = frame(title, xLabel, yLabel, yMax);
        for (int i = 0; i < xs.size(); i++) {
            if (xs.size() <= 12 || i % Math.max(1, xs.size() / 10) == 0) {
                svg.append(text(x(xs.get(i), xMin, xMax), HEIGHT - BOTTOM + 16, "middle", Html.escape(labels.get(i))));
            }
        }
        for (int s = 0; s < series.size(); s++) {
            StringBuilder points = new StringBuilder();
            for (int i = 0; i < xs.size(); i++) {
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(xs.get(i), xMin, xMax), y(series.get(s).values().get(i), yMax)));
            }
            String colour = PALETTE.get(s % PALETTE.size());
            svg.append("<polyline fill=\"none\" stroke-width=\"3\" stroke=\"").append(colour).append("\" points=\"").append(points).append("\"/>");
            for (int i = 0; i < xs.size(); i++) {
                svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>", x(xs.get(i), xMin, xMax),
                        y(series.get(s).values().get(i), yMax), colour));
            }
            legend(svg, s, series.get(s).name());
        }
        return svg.append("</svg>").toString();
    }

    static String bars(String title, String xLabel, String yLabel, List<String> categories, List<Series> series) {
        double yMax = niceMax(series);
        StringBuilder svg = frame(title, xLabel, yLabel, yMax);
        double slot = (double) (WIDTH - LEFT - RIGHT) / Math.max(1, categories.size());
        double bar = slot * 0.8 / Math.max(1, series.size());
        for (int c = 0; c < categories.size(); c++) {
            double left = LEFT + c * slot + slot * 0.1;
            svg.append(text(LEFT + c * slot + slot / 2, HEIGHT - BOTTOM + 16, "middle", Html.escape(categories.get(c))));
            for (int s = 0; s < series.size(); s++) {
                double top = y(series.get(s).values().get(c), yMax);
                svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>", left + s * bar, top,
                        Math.max(1, bar - 2), Math.max(0, HEIGHT - BOTTOM - top), PALETTE.get(s % PALETTE.size())));
            }
        }
        for (int s = 0; s < series.size(); s++) {
            legend(svg, s, series.get(s).name());
        }
        return svg.append("</svg>").toString();
    }

    private static StringBuilder frame(String title, String xLabel, String yLabel, double yMax) {
        StringBuilder svg = new StringBuilder(String.format(Locale.ROOT,
                "<svg class=\"chart\" role=\"img\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">",
                WIDTH, HEIGHT, WIDTH, HEIGHT));
        svg.append("<title>").append(Html.escape(title)).append("</title>");
        svg.append(text(LEFT, 18, "start", "<tspan font-weight=\"bold\">" + Html.escape(title) + "</tspan>"));
        for (int i = 0; i <= 4; i++) {
            double value = yMax * i / 4;
            double y = y(value, yMax);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>", LEFT, WIDTH - RIGHT, y, y));
            svg.append(text(LEFT - 6, y + 4, "end", number(value)));
        }
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#444\"/>", LEFT, WIDTH - RIGHT, HEIGHT - BOTTOM, HEIGHT - BOTTOM));
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#444\"/>", LEFT, LEFT, TOP, HEIGHT - BOTTOM));
        svg.append(text((LEFT + WIDTH - RIGHT) / 2.0, HEIGHT - 6, "middle", Html.escape(xLabel)));
        svg.append(String.format(Locale.ROOT, "<text x=\"14\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 14 %d)\">%s</text>",
                (TOP + HEIGHT - BOTTOM) / 2, (TOP + HEIGHT - BOTTOM) / 2, Html.escape(yLabel)));
        return svg;
    }

    private static void legend(StringBuilder svg, int index, String name) {
        int y = TOP + 10 + index * 20;
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\"/>", WIDTH - RIGHT + 12, y - 11,
                PALETTE.get(index % PALETTE.size())));
        svg.append(text(WIDTH - RIGHT + 32, y, "start", Html.escape(name)));
    }

    private static String text(double x, double y, String anchor, String content) {
        return String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>", x, y, anchor, content);
    }

    private static double x(double value, double min, double max) {
        return max == min ? LEFT + (WIDTH - LEFT - RIGHT) / 2.0 : LEFT + (value - min) / (max - min) * (WIDTH - LEFT - RIGHT);
    }

    private static double y(double value, double max) {
        return HEIGHT - BOTTOM - (max == 0 ? 0 : value / max * (HEIGHT - TOP - BOTTOM));
    }

    /** A round top for the y axis: 1, 2 or 5 times a power of ten, above every value. */
    private static double niceMax(List<Series> series) {
        double max = series.stream().flatMap(s -> s.values().stream()).mapToDouble(Double::doubleValue).max().orElse(0);
        if (max <= 0) {
            return 1;
        }
        double power = Math.pow(10, Math.floor(Math.log10(max)));
        for (double step : new double[] {1, 2, 5, 10}) {
            if (step * power >= max) {
                return step * power;
            }
        }
        return 10 * power;
    }

    private static String number(double value) {
        if (value >= 100 || value == Math.rint(value)) {
            return String.format(Locale.ROOT, "%.0f", value);
        }
        return String.format(Locale.ROOT, value >= 10 ? "%.1f" : "%.2f", value);
    }
}
