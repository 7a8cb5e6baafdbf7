package io.mover.core.plugin;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.mover.spi.EndpointInfo;
import io.mover.spi.Entry;
import io.mover.spi.RelativePath;
import io.mover.spi.ServerSideCopy;
import io.mover.spi.Source;
import io.mover.spi.SourceReader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The wrapper's per-call shortcuts keep its rules: it remembers the last wrapper it unwrapped, so a different
 * wrapper passed next must still arrive as its own delegate, a wrapper of another loader's plugin as it is, and
 * the caller's argument array untouched.
 */
class ClassLoaderSafeTest {
    private final ClassLoader loader = new ClassLoader(getClass().getClassLoader()) {};
    private final ClassLoader other = new ClassLoader(getClass().getClassLoader()) {};
    private final Entry entry = Entry.file(RelativePath.of("f"), 1, Instant.EPOCH);

    @Test
    void eachWrapperOfThePluginArrivesAsItsOwnDelegateAndOthersAsTheyAre() {
        List<Source> received = new ArrayList<>();
        List<ClassLoader> contexts = new ArrayList<>();
        ServerSideCopy raw = (source, entry, target) -> {
            received.add(source);
            contexts.add(Thread.currentThread().getContextClassLoader());
            return Optional.of(entry);
        };
        ServerSideCopy copy = ClassLoaderSafe.wrap(ServerSideCopy.class, raw, loader);
        Source first = new NamedSource("first");
        Source second = new NamedSource("second");
        Source wrappedFirst = ClassLoaderSafe.wrap(Source.class, first, loader);
        Source wrappedSecond = ClassLoaderSafe.wrap(Source.class, second, loader);
        Source foreign = ClassLoaderSafe.wrap(Source.class, new NamedSource("foreign"), other);

        for (Source source : List.of(wrappedFirst, wrappedFirst, wrappedSecond, wrappedFirst, foreign, wrappedSecond)) {
            assertThat(copy.copyFrom(source, entry, RelativePath.of("g"))).contains(entry);
        }

        assertThat(received).containsExactly(first, first, second, first, foreign, second);
        assertThat(contexts).containsOnly(loader);
        assertThat(Thread.currentThread().getContextClassLoader()).isNotSameAs(loader);
    }

    @Test
    void theCallersArgumentsAreNotChanged() throws Throwable {
        Source source = new NamedSource("source");
        Source wrapped = ClassLoaderSafe.wrap(Source.class, source, loader);
        ServerSideCopy copy = ClassLoaderSafe.wrap(ServerSideCopy.class, (s, e, t) -> Optional.of(e), loader);
        Object[] arguments = {wrapped, entry, RelativePath.of("g")};

        java.lang.reflect.Proxy.getInvocationHandler(copy)
                .invoke(copy, ServerSideCopy.class.getMethod("copyFrom", Source.class, Entry.class, RelativePath.class), arguments);

        assertThat(arguments[0]).isSameAs(wrapped);
    }

    @Test
    void aPluginOfTheEnginesOwnLoaderIsUsedAsItIs() {
        Source source = new NamedSource("class path");

        assertThat(ClassLoaderSafe.wrap(Source.class, source, ClassLoaderSafe.class.getClassLoader())).isSameAs(source);
        assertThat(ClassLoaderSafe.wrap(Source.class, source, loader)).isNotSameAs(source);
    }

    private record NamedSource(String name) implements Source {
        public EndpointInfo info() { throw new UnsupportedOperationException(); }
        public Optional<Entry> stat(RelativePath path) { return Optional.empty(); }
        public Stream<Entry> list(RelativePath directory) { return Stream.empty(); }
        public SourceReader open(RelativePath path) { throw new UnsupportedOperationException(); }
        public void close() {}
    }
}
