import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * Starts DynamoDB Local bound to one address (DynamoDB Local itself has no such option and
 * listens on every interface), and stops it when standard input closes: the local host keeps
 * the pipe open, so when the host stops or dies the engine goes with it.
 * Usage: java LoopbackDynamoDB.java <address> <DynamoDB Local arguments...>
 */
public class LoopbackDynamoDB {
  public static void main(String[] args) throws Exception {
    String host = args[0];
    String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(rest);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server jetty = (Server) field.get(proxy);
    for (Connector connector : jetty.getConnectors()) {
      if (connector instanceof ServerConnector) ((ServerConnector) connector).setHost(host);
    }
    Thread watcher = new Thread(() -> {
      try {
        while (System.in.read() != -1) { /* the host never writes; EOF means it is gone */ }
      } catch (Exception ignored) {
        // A broken pipe also means the host is gone.
      }
      Runtime.getRuntime().halt(0);
    });
    watcher.setDaemon(true);
    watcher.start();
    proxy.start();
    proxy.join();
  }
}
