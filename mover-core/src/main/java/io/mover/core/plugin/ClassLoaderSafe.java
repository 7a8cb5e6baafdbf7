package io.mover.core.plugin;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import io.mover.spi.MoverPlugin;

import static java.util.Objects.requireNonNull;

/**
 * Runs every call into a plugin object with the plugin's class loader as the thread's context class
 * loader, so that libraries inside the plugin that look classes up through the context loader (JAXB,
 * Jackson modules, SDK service lookups, {@link java.util.ServiceLoader#load(Class)}) find the plugin's
 * own classes, on whichever engine thread the call happens.
 *
 * <p>Why a {@link Proxy} and not a hand-written delegating class per SPI type: a wrapper must implement
 * exactly the optional abilities its delegate implements ({@code SymbolicLinks}, {@code ServerSideCopy},
 * {@code RecursiveList}, {@code ContentHashes}), because the engine detects them with {@code instanceof}.
 * A sink has four of them, so hand-written wrappers would need sixteen classes per kind, and one more
 * ability would double that. The proxy implements the SPI interfaces its delegate implements, no more.
 *
 * <p>The rules, all in {@link Handler}:
 * <ul>
 * <li>a result whose declared type is an SPI interface ({@code Source}, {@code SinkWriter}, {@code Codec}...)
 *     is wrapped the same way; a {@link Stream} result is wrapped so that its lazy elements are also
 *     produced under the plugin's loader; data (records, {@code Optional}) passes as it is;</li>
 * <li>an argument that is a wrapper of the same plugin is unwrapped, so a plugin's
 *     {@code ServerSideCopy} recognises its own {@code Source} class;</li>
 * <li>exceptions the plugin throws come out unchanged.</li>
 * </ul>
 * <p>A plugin of the engine's own class loader (the class path's: local, tcp, the codecs...) is not wrapped: its
 * classes and libraries are the engine's, which the engine's threads already have as their context class loader,
 * and a wrapper cost each command a generated proxy class per SPI type at start (40 ms of a sync's main thread,
 * 22 ms before a peer copy's first connect: docs/benchmarks.md) and each call a reflective dispatch.
 * Thread-safe: a wrapper holds no state beyond its delegate and loader.
 */
final class ClassLoaderSafe {
    private static final String SPI_PACKAGE = MoverPlugin.class.getPackageName();
    private static final ClassLoader ENGINE = ClassLoaderSafe.class.getClassLoader();

    private ClassLoaderSafe() {}

    /** {@code delegate} seen through {@code type} and every other SPI interface it implements. */
    static <T> T wrap(Class<T> type, T delegate, ClassLoader loader) {
        requireNonNull(type, "type is null");
        requireNonNull(delegate, "delegate is null");
        requireNonNull(loader, "loader is null");
        if (loader == ENGINE) {
            return delegate;
        }
        if (Proxy.isProxyClass(delegate.getClass()) && Proxy.getInvocationHandler(delegate) instanceof Handler) {
            return delegate;
        }
        Set<Class<?>> interfaces = new LinkedHashSet<>();
        interfaces.add(type);
        collectSpiInterfaces(delegate.getClass(), interfaces);
        Object proxy = Proxy.newProxyInstance(MoverPlugin.class.getClassLoader(), interfaces.toArray(Class<?>[]::new),
                new Handler(delegate, loader));
        return type.cast(proxy);
    }

    /** Runs {@code call} with {@code loader} as the context class loader, and restores the previous one. */
    static <T> T call(ClassLoader loader, Supplier<T> call) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            return call.get();
        }
        finally {
            thread.setContextClassLoader(previous);
        }
    }

    private static void collectSpiInterfaces(Class<?> type, Set<Class<?>> into) {
        // Bounded by the class hierarchy's depth; the SPI's own interfaces are the only ones shared.
        for (Class<?> current = type; current != null; current = current.getSuperclass()) {
            for (Class<?> candidate : current.getInterfaces()) {
                if (candidate.getPackageName().equals(SPI_PACKAGE)) {
                    into.add(candidate);
                }
                collectSpiInterfaces(candidate, into);
            }
        }
    }

    /**
     * Per call, only what must be: the engine calls a sink once or more per file (a small-file job makes a hundred
     * thousand such calls), so an argument is checked for being a proxy with a plain type test first, the last
     * proxy unwrapped is remembered (the engine passes the same {@code Source} for every file), and the interface
     * method is invoked through a copy made accessible once, since {@link Method#invoke} on the proxy's own
     * {@code Method} walks the stack for its caller on every call (its access check).
     */
    private static final class Handler implements InvocationHandler {
        /**
         * The proxy's methods, made accessible; shared by all handlers (a method of an SPI interface is public). Bounded
         * by the SPI's methods: the equal methods of different proxy classes share one entry.
         */
        private static final ConcurrentHashMap<Method, Method> ACCESSIBLE = new ConcurrentHashMap<>();
        private final Object delegate;
        private final ClassLoader loader;
        /** The last argument unwrapped, with its delegate; null until the first. */
        private volatile Unwrapped last;

        private record Unwrapped(Object proxy, Object delegate) {}

        Handler(Object delegate, ClassLoader loader) {
            this.delegate = delegate;
            this.loader = loader;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] arguments) throws Throwable {
            Object[] unwrapped = unwrapArguments(arguments);
            Thread thread = Thread.currentThread();
            ClassLoader previous = thread.getContextClassLoader();
            thread.setContextClassLoader(loader);
            try {
                return wrapResult(method.getReturnType(), accessible(method).invoke(delegate, unwrapped));
            }
            catch (InvocationTargetException e) {
                throw e.getCause();
            }
            finally {
                thread.setContextClassLoader(previous);
            }
        }

        /** A copy of {@code method} with the access check off: its interface is public, so the check always passes. */
        private static Method accessible(Method method) {
            Method copy = ACCESSIBLE.get(method);
            if (copy != null) {
                return copy;
            }
            return ACCESSIBLE.computeIfAbsent(method, m -> {
                try {
                    Method made = m.getDeclaringClass().getMethod(m.getName(), m.getParameterTypes());
                    made.setAccessible(true);
                    return made;
                }
                catch (NoSuchMethodException | RuntimeException e) {
                    // not public after all, or refused: the proxy's own method, checked on every call as before
                    return m;
                }
            });
        }

        private Object wrapResult(Class<?> declared, Object result) {
            if (result == null) {
                return null;
            }
            if (declared.isInterface() && declared.getPackageName().equals(SPI_PACKAGE)) {
                return wrap(erase(declared), result, loader);
            }
            if (declared == Stream.class) {
                return wrapStream((Stream<?>) result);
            }
            return result;
        }

        private <T> Stream<T> wrapStream(Stream<T> stream) {
            ClassLoaderSafeSpliterator<T> elements = new ClassLoaderSafeSpliterator<>(call(loader, stream::spliterator), loader);
            return StreamSupport.stream(elements, stream.isParallel()).onClose(() -> call(loader, () -> {
                stream.close();
                return null;
            }));
        }

        /** {@code arguments} with the wrappers of this plugin's objects replaced by their delegates. */
        private Object[] unwrapArguments(Object[] arguments) {
            if (arguments == null) {
                return null;
            }
            Object[] unwrapped = arguments;
            for (int i = 0; i < arguments.length; i++) {
                Object argument = arguments[i];
                // a plain type test first: most arguments (entries, paths, buffers) are no proxy
                if (!(argument instanceof Proxy)) {
                    continue;
                }
                Object inner = unwrap(argument);
                if (inner != argument) {
                    if (unwrapped == arguments) {
                        // the caller's array is not ours to change; copyOf, not clone(), which C1 (the CLI's only
                        // compiler) leaves to a call into the VM
                        unwrapped = Arrays.copyOf(arguments, arguments.length);
                    }
                    unwrapped[i] = inner;
                }
            }
            return unwrapped;
        }

        /** The delegate of a wrapper of this plugin, or {@code argument} itself. */
        private Object unwrap(Object argument) {
            Unwrapped remembered = last;
            if (remembered != null && remembered.proxy() == argument) {
                return remembered.delegate();
            }
            if (Proxy.isProxyClass(argument.getClass()) && Proxy.getInvocationHandler(argument) instanceof Handler other && other.loader == loader) {
                last = new Unwrapped(argument, other.delegate);
                return other.delegate;
            }
            return argument;
        }

        @SuppressWarnings("unchecked")
        private static <T> Class<T> erase(Class<?> type) {
            return (Class<T>) type;
        }
    }
}
