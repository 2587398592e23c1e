// The schematrons of lib/domain/facturx/einvoice-validation.ts run by Saxon-HE on the JVM (the engine the tests already
// use as their reference, lib/domain/facturx/validate.ts): a long-lived process that compiles the official stylesheets
// once, then validates each document it is sent on stdin and answers each stylesheet's SVRL on stdout. Run by the
// JVM's source launcher (java -cp Saxon-HE.jar SchematronServer.java name=stylesheet.xsl …): nothing to build.
//
// Protocol, UTF-8. Request: "<id> <bytes>\n" then the document. Answer, once per request, written at once:
//   "<id> <name> <bytes>\n<svrl>" for each stylesheet, then "<id> END 0\n";
//   or "<id> UNPARSABLE <bytes>\n<message>" when the document is not XML, or "<id> ERROR <bytes>\n<message>".
// "READY\n" is written once every stylesheet is compiled.
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;
import java.util.concurrent.*;
import javax.xml.transform.Source;
import javax.xml.transform.stream.StreamSource;
import net.sf.saxon.s9api.*;

public class SchematronServer {
  private static final Processor PROCESSOR = new Processor(false);
  /** Documents the stylesheets read with document() (the Factur-X code lists), parsed once and shared. */
  private static final Map<String, XdmNode> DOCUMENTS = new ConcurrentHashMap<>();
  private static final OutputStream OUT = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16);

  public static void main(String[] args) throws Exception {
    XsltCompiler compiler = PROCESSOR.newXsltCompiler();
    List<String> names = new ArrayList<>();
    List<XsltExecutable> executables = new ArrayList<>();
    for (String arg : args) {
      int eq = arg.indexOf('=');
      names.add(arg.substring(0, eq));
      executables.add(compiler.compile(new StreamSource(new File(arg.substring(eq + 1)))));
    }
    int threads = Integer.parseInt(System.getProperty("paraphe.threads", "2"));
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r);
      t.setDaemon(true);
      return t;
    });
    write("READY\n".getBytes(StandardCharsets.UTF_8));

    DataInputStream in = new DataInputStream(new BufferedInputStream(System.in, 1 << 16));
    for (String header = readLine(in); header != null; header = readLine(in)) {
      String[] parts = header.split(" ");
      String id = parts[0];
      byte[] xml = new byte[Integer.parseInt(parts[1])];
      in.readFully(xml);
      pool.execute(() -> write(validate(id, xml, names, executables)));
    }
    // stdin closed: the Node process went away.
    pool.shutdown();
    pool.awaitTermination(30, TimeUnit.SECONDS);
    System.exit(0);
  }

  private static byte[] validate(String id, byte[] xml, List<String> names, List<XsltExecutable> executables) {
    ByteArrayOutputStream answer = new ByteArrayOutputStream();
    XdmNode source;
    try {
      source = PROCESSOR.newDocumentBuilder().build(new StreamSource(new ByteArrayInputStream(xml)));
    } catch (SaxonApiException e) {
      return frame(id, "UNPARSABLE", String.valueOf(e.getMessage()).getBytes(StandardCharsets.UTF_8));
    }
    try {
      for (int i = 0; i < executables.size(); i++) {
        Xslt30Transformer transformer = executables.get(i).load30();
        // A stylesheet's global variables read the document (the context item of XSLT 2.0's initial template).
        transformer.setGlobalContextItem(source);
        transformer.setURIResolver((href, base) -> sharedDocument(href, base));
        transformer.setErrorListener(new Quiet());
        ByteArrayOutputStream svrl = new ByteArrayOutputStream(8192);
        transformer.applyTemplates(source, PROCESSOR.newSerializer(svrl));
        answer.writeBytes(frame(id, names.get(i), svrl.toByteArray()));
      }
      answer.writeBytes((id + " END 0\n").getBytes(StandardCharsets.UTF_8));
      return answer.toByteArray();
    } catch (Exception e) {
      return frame(id, "ERROR", String.valueOf(e.getMessage()).getBytes(StandardCharsets.UTF_8));
    }
  }

  /** document(): the same parsed tree for every transform (what SaxonJS's documentPool does in the Node engine). */
  private static Source sharedDocument(String href, String base) throws javax.xml.transform.TransformerException {
    try {
      String uri = (base == null || base.isEmpty()) ? href : new java.net.URI(base).resolve(href).toString();
      XdmNode node = DOCUMENTS.get(uri);
      if (node == null) {
        node = PROCESSOR.newDocumentBuilder().build(new StreamSource(uri));
        DOCUMENTS.put(uri, node);
      }
      return node.asSource();
    } catch (Exception e) {
      throw new javax.xml.transform.TransformerException(e);
    }
  }

  /** Recoverable errors (a match pattern that cannot be evaluated: no match) are not worth a line on stderr. */
  private static final class Quiet implements javax.xml.transform.ErrorListener {
    public void warning(javax.xml.transform.TransformerException e) {}
    public void error(javax.xml.transform.TransformerException e) {}
    public void fatalError(javax.xml.transform.TransformerException e) throws javax.xml.transform.TransformerException {
      throw e;
    }
  }

  private static byte[] frame(String id, String name, byte[] body) {
    byte[] head = (id + " " + name + " " + body.length + "\n").getBytes(StandardCharsets.UTF_8);
    byte[] out = Arrays.copyOf(head, head.length + body.length);
    System.arraycopy(body, 0, out, head.length, body.length);
    return out;
  }

  private static void write(byte[] bytes) {
    synchronized (OUT) {
      try {
        OUT.write(bytes);
        OUT.flush();
      } catch (IOException e) {
        System.exit(1);
      }
    }
  }

  private static String readLine(DataInputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream(32);
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b < 0) return null;
      line.write(b);
    }
    return line.toString(StandardCharsets.UTF_8);
  }
}
