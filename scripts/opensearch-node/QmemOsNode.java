import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.logging.LogConfigurator;
import org.opensearch.common.settings.Settings;
import org.opensearch.env.Environment;
import org.opensearch.node.InternalSettingsPreparer;
import org.opensearch.node.Node;
import org.opensearch.plugins.Plugin;

/**
 * One OpenSearch node in this JVM, for qmem's tests (scripts/test-cluster starts one per node).
 *
 * Args: path.home, then the plugin classes to load from the classpath. Every other setting is
 * in path.home/config/opensearch.yml, written by scripts/test-cluster. Embedding skips the
 * bootstrap checks, the security manager and JarHell, which only the distribution's
 * bootstrap runs; that is why this runs without vm.max_map_count or a tarball.
 */
public final class QmemOsNode {
  static final class EmbeddedNode extends Node {
    EmbeddedNode(Environment env, Collection<Class<? extends Plugin>> plugins) {
      super(env, plugins, true);
    }

    @Override
    protected void configureNodeAndClusterIdStateListener(ClusterService clusterService) {
      // a static SetOnce (OpenSearch #4466); harmless with one node per JVM, needed with more
    }
  }

  @SuppressWarnings("unchecked")
  public static void main(String[] args) throws Exception {
    Path home = Paths.get(args[0]).toAbsolutePath();
    for (String d : List.of("config", "data", "logs", "modules", "plugins")) {
      Files.createDirectories(home.resolve(d));
    }
    List<Class<? extends Plugin>> plugins = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      plugins.add((Class<? extends Plugin>) Class.forName(args[i]));
    }
    Settings input = Settings.builder().put("path.home", home.toString()).build();
    Environment env = InternalSettingsPreparer.prepareEnvironment(
        input, Collections.emptyMap(), home.resolve("config"), () -> "qmem-node");
    LogConfigurator.registerErrorListener();
    LogConfigurator.configure(env);
    Node node = new EmbeddedNode(env, plugins);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        node.close();
      } catch (Exception e) {
        // the JVM is going anyway
      }
    }));
    node.start();
    Thread.currentThread().join();
  }
}
