package io.mover.cli;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import jdk.management.VirtualThreadSchedulerMXBean;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CarriersTest {
    /** Run in a JVM of its own by {@link #theSchedulerTakesTheCarriersWhenSetFirst}: sets the carriers as Main does, then reads the scheduler. */
    public static void main(String[] args) throws InterruptedException {
        Main.carriers(Integer.parseInt(args[0]));
        Thread.ofVirtual().start(() -> {}).join();
        System.out.print(ManagementFactory.getPlatformMXBean(VirtualThreadSchedulerMXBean.class).getParallelism());
    }

    @Test
    void fourCarriersACoreUnlessTheOperatorSetsThem() {
        String before = System.getProperty(Main.CARRIERS);
        try {
            System.clearProperty(Main.CARRIERS);
            Main.carriers(2);
            assertThat(System.getProperty(Main.CARRIERS)).isEqualTo("8");
            System.clearProperty(Main.CARRIERS);
            Main.carriers(128);
            assertThat(System.getProperty(Main.CARRIERS)).as("the scheduler's own ceiling").isEqualTo(Integer.toString(Main.MAX_CARRIERS));
            System.setProperty(Main.CARRIERS, "3");
            Main.carriers(2);
            assertThat(System.getProperty(Main.CARRIERS)).isEqualTo("3");
        }
        finally {
            if (before == null) {
                System.clearProperty(Main.CARRIERS);
            }
            else {
                System.setProperty(Main.CARRIERS, before);
            }
        }
    }

    @Test
    void theSchedulerTakesTheCarriersWhenSetFirst() throws Exception {
        Process java = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path"),
                CarriersTest.class.getName(), "3").redirectErrorStream(true).start();
        try {
            assertThat(java.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("12");
            assertThat(java.exitValue()).isZero();
        }
        finally {
            java.destroyForcibly();
        }
    }
}
