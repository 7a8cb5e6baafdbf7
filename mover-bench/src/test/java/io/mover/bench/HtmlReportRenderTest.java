package io.mover.bench;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Renders real bench reports in headless Chromium (.ci/run installs the Debian package) and checks
 * from the screenshot that the charts are drawn: each series colour of the palette, which only the
 * charts use, covers a chart's worth of pixels. A chart that failed to render leaves the page grey.
 */
@Timeout(180)
class HtmlReportRenderTest {
    @TempDir
    Path temp;

    @Test
    void theTransferChartsAreDrawn() throws Exception {
        Path target = Files.createDirectories(temp.resolve("target"));
        BenchReport report = TransferBenchTest.run(temp, new TransferSettings(target.toString(), java.util.Map.of(), 40, 256 * 1024, "random",
                List.of(1, 4), 1 << 20, "none", false, "mover-bench"));
        BufferedImage shot = render(HtmlReport.of(report));

        // the sweep's bars: write (first colour) and read back (second), three bars' worth each at least
        assertThat(pixels(shot, Svg.PALETTE.get(0))).as("write bars and the READ line").isGreaterThan(400);
        assertThat(pixels(shot, Svg.PALETTE.get(1))).as("read-back bars").isGreaterThan(2000);
    }

    @Test
    void theStreamsAndCodecsChartIsDrawn() throws Exception {
        // the renderer's input, made here: a sweep over a link needs a receiver (LinkBenchTest runs one)
        List<String> codecs = List.of("none", "lz4", "zstd:1");
        List<BenchReport.SweepPoint> cells = new java.util.ArrayList<>();
        for (int streams : List.of(1, 2, 4)) {
            for (int c = 0; c < codecs.size(); c++) {
                BenchReport.Phase write = new BenchReport.Phase(10, 10L << 20, 1, (streams * 20.0 + c * 15) * (1 << 20), 10);
                cells.add(new BenchReport.SweepPoint(16, write, null, List.of(), "SEND", "SEND: 50% of busy time", List.of(), List.of(), streams,
                        codecs.get(c), codecs.get(c)));
            }
        }
        BenchReport report = new BenchReport("transfer", "tcp://far:7878/x", "2026-11-23T00:00:00Z", "cells", cells,
                new BenchReport.Recommendation(16, 16, "--streams 4 --codec zstd:1 --concurrency 16", "SEND", "best", 4, "zstd:1"), List.of(),
                List.of(), List.of());
        String html = HtmlReport.of(report);
        assertThat(html).contains("Streams and codecs", "4 streams, zstd:1", "Recommended: --streams 4 --codec zstd:1");
        BufferedImage shot = render(html);

        // three bars per codec colour, grouped by streams
        for (int series = 0; series < codecs.size(); series++) {
            assertThat(pixels(shot, Svg.PALETTE.get(series))).as(codecs.get(series) + " bars").isGreaterThan(1000);
        }
    }

    @Test
    void theFourCornerChartsAreDrawn() throws Exception {
        Path target = Files.createDirectories(temp.resolve("target"));
        BufferedImage shot = render(HtmlReport.of(IoBenchTest.run(temp, target)));

        // four patterns, a line each in two charts, and the block-size bars in the first colour
        for (int series = 0; series < 4; series++) {
            assertThat(pixels(shot, Svg.PALETTE.get(series))).as("series " + series + " " + Svg.PALETTE.get(series)).isGreaterThan(300);
        }
    }

    @Test
    void theReportNeedsNoNetwork() throws IOException {
        Path target = Files.createDirectories(temp.resolve("target"));
        String html = HtmlReport.of(IoBenchTest.run(temp, target));
        assertThat(html).doesNotContain("http://", "https://", "<script", "<link");
        assertThat(html).startsWith("<!DOCTYPE html>").contains("<svg", "</html>");
    }

    private BufferedImage render(String html) throws IOException, InterruptedException {
        Optional<Path> chromium = chromium();
        assumeTrue(chromium.isPresent(), "no chromium installed (apt-get install -y chromium; .ci/run does)");
        Path page = Files.writeString(temp.resolve("report.html"), html);
        Path png = temp.resolve("shot.png");
        Process process = new ProcessBuilder(chromium.get().toString(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                "--no-first-run", "--user-data-dir=" + temp.resolve("profile"), "--window-size=1000,3000", "--screenshot=" + png,
                page.toUri().toString()).redirectErrorStream(true).redirectOutput(temp.resolve("chromium.log").toFile()).start();
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("chromium did not finish in 90 s: " + Files.readString(temp.resolve("chromium.log")));
        }
        assertThat(png).as(Files.readString(temp.resolve("chromium.log"))).exists();
        return ImageIO.read(png.toFile());
    }

    private static Optional<Path> chromium() {
        for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
            for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
                Path candidate = Path.of(dir, name);
                if (Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    /** Pixels within a small distance of {@code hex} (anti-aliasing blends the edges). */
    private static long pixels(BufferedImage image, String hex) {
        int rgb = Integer.parseInt(hex.substring(1), 16);
        int r = rgb >> 16 & 255;
        int g = rgb >> 8 & 255;
        int b = rgb & 255;
        long count = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int p = image.getRGB(x, y);
                if (Math.abs((p >> 16 & 255) - r) + Math.abs((p >> 8 & 255) - g) + Math.abs((p & 255) - b) < 30) {
                    count++;
                }
            }
        }
        return count;
    }
}
