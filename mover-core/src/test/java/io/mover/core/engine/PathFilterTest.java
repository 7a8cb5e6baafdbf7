package io.mover.core.engine;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.mover.spi.RelativePath;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PathFilterTest {
    private static RelativePath p(String path) {
        return RelativePath.of(path);
    }

    @Test
    void aPatternWithoutSlashMatchesNamesAtAnyDepth() {
        PathFilter filter = new PathFilter(List.of("*.txt"), List.of("*.tmp"));
        assertThat(filter.includesFile(p("a.txt"))).isTrue();
        assertThat(filter.includesFile(p("deep/er/b.txt"))).isTrue();
        assertThat(filter.includesFile(p("c.log"))).isFalse();
        assertThat(filter.entersDirectory(p("x.tmp"))).isFalse();
        assertThat(filter.entersDirectory(p("logs"))).as("includes never prune directories").isTrue();
    }

    @Test
    void aPatternWithSlashMatchesTheWholePath() {
        PathFilter filter = new PathFilter(List.of(), List.of("build/**", "/cache"));
        assertThat(filter.includesFile(p("build/out/a.class"))).isFalse();
        assertThat(filter.includesFile(p("src/build/a.java"))).isTrue();
        assertThat(filter.entersDirectory(p("cache"))).isFalse();
        assertThat(filter.entersDirectory(p("sub/cache"))).as("a leading slash anchors the name to the root").isTrue();
    }

    @Test
    void badPatternsAreRefusedNamingTheOption() {
        assertThatThrownBy(() -> new PathFilter(List.of("a[b"), List.of())).hasMessageContaining("--include").hasMessageContaining("a[b");
        assertThatThrownBy(() -> new PathFilter(List.of(), List.of(""))).hasMessageContaining("--exclude");
    }
}
