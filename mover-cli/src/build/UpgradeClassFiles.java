import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeTransform;
import java.lang.constant.ClassDesc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Build step of mover-cli (run by the JDK's source launcher from the POM, not shipped): rewrites the class
 * files under a class directory (picocli's, unpacked into mover-cli's) that are older than a given version as that version, with the stack maps the
 * newer verifier needs. picocli's jar is Java 5 class files (version 49), and JDK 25's ahead-of-time cache
 * refuses classes that old once linked ("Old class has been linked"), and with them the CLI's own classes
 * that implement picocli's interfaces: they were loaded, verified by the old verifier and linked again at
 * every start of {@code ./mover}. The bytecode is kept as it is; only the version and the stack maps change.
 * Usage: {@code java UpgradeClassFiles.java DIRECTORY MAJOR_VERSION}.
 */
public final class UpgradeClassFiles {
    private UpgradeClassFiles() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: java UpgradeClassFiles.java DIRECTORY MAJOR_VERSION");
        }
        Path root = Path.of(args[0]);
        int major = Integer.parseInt(args[1]);
        // stack maps merge types: the classes being rewritten are looked up in the same directory, the JDK's in the JDK
        ClassHierarchyResolver resolver = ClassHierarchyResolver.ofResourceParsing((ClassDesc type) -> open(root, type))
                .orElse(ClassHierarchyResolver.defaultResolver()).cached();
        ClassFile classFile = ClassFile.of(ClassFile.ClassHierarchyResolverOption.of(resolver), ClassFile.StackMapsOption.GENERATE_STACK_MAPS);
        // every method body passes through a code transform: an untransformed body would be copied as it is, without stack maps
        ClassTransform upgrade = ClassTransform.transformingMethodBodies(CodeTransform.ACCEPT_ALL)
                .andThen(ClassTransform.endHandler(builder -> builder.withVersion(major, 0)));
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(file -> file.toString().endsWith(".class") && !file.getFileName().toString().equals("module-info.class")).toList();
        }
        int upgraded = 0;
        for (Path file : files) {
            ClassModel model = classFile.parse(Files.readAllBytes(file));
            if (model.majorVersion() < major) {
                Files.write(file, classFile.transformClass(model, upgrade));
                upgraded++;
            }
        }
        System.out.println("UpgradeClassFiles: " + upgraded + " of " + files.size() + " class files under " + root + " now version " + major);
    }

    private static InputStream open(Path root, ClassDesc type) {
        String descriptor = type.descriptorString();
        Path file = root.resolve(descriptor.substring(1, descriptor.length() - 1) + ".class");
        try {
            return Files.exists(file) ? Files.newInputStream(file) : null;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
