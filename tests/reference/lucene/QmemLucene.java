// Lucene itself, driven the way an OpenSearch node would be by qmem's index template and
// compiled queries: the parity tests compare its tokens and its BM25 ranking with qmem's.
//
//   java QmemLucene tokens PATTERN MAXLEN STEM IN.txt OUT.txt
//       one line of tokens (tab-separated) per input line; STEM 0 leaves the stemmer out
//   java QmemLucene rank PATTERN MAXLEN SECTIONS.tsv QUERIES.jsonl K OUT.tsv
//       SECTIONS: id \t heading \t body \t scope (\\, \n, \t escaped); QUERIES: one query DSL object
//       per line (bool, term, match_phrase with the whitespace analyzer, match_all, terms);
//       OUT: per query, the top K "id score" pairs, tab-separated
//
// The chain is the template's: PatternTokenizer (group 0), LengthFilter(0, MAXLEN),
// LowerCaseFilter, SnowballFilter(EnglishStemmer) — OpenSearch's `stemmer` with language
// `porter2`. Similarity: Lucene's default BM25 (k1 1.2, b 0.75), as OpenSearch's.
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import java.util.regex.Pattern;

import org.apache.lucene.analysis.*;
import org.apache.lucene.analysis.core.WhitespaceTokenizer;
import org.apache.lucene.analysis.miscellaneous.LengthFilter;
import org.apache.lucene.analysis.pattern.PatternTokenizer;
import org.apache.lucene.analysis.snowball.SnowballFilter;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.*;
import org.apache.lucene.index.*;
import org.apache.lucene.search.*;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.BytesRef;
import org.tartarus.snowball.ext.EnglishStemmer;

public class QmemLucene {
    static Analyzer qmemAnalyzer(String pattern, int maxLen, boolean stem) {
        final Pattern p = Pattern.compile(pattern);
        return new Analyzer() {
            @Override
            protected TokenStreamComponents createComponents(String field) {
                Tokenizer source = new PatternTokenizer(p, 0);
                TokenStream ts = new LengthFilter(source, 0, maxLen);
                ts = new LowerCaseFilter(ts);
                if (stem) ts = new SnowballFilter(ts, new EnglishStemmer());
                return new TokenStreamComponents(source, ts);
            }
        };
    }

    static List<String> analyze(Analyzer a, String text) throws IOException {
        List<String> out = new ArrayList<>();
        try (TokenStream ts = a.tokenStream("body", text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) out.add(term.toString());
            ts.end();
        }
        return out;
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("tokens")) {
            Analyzer analyzer = qmemAnalyzer(args[1], Integer.parseInt(args[2]), !args[3].equals("0"));
            List<String> lines = Files.readAllLines(Paths.get(args[4]), StandardCharsets.UTF_8);
            try (Writer w = Files.newBufferedWriter(Paths.get(args[5]), StandardCharsets.UTF_8)) {
                for (String line : lines) w.write(String.join("\t", analyze(analyzer, line)) + "\n");
            }
        } else if (args[0].equals("rank")) {
            Analyzer analyzer = qmemAnalyzer(args[1], Integer.parseInt(args[2]), true);
            rank(analyzer, args[3], args[4], Integer.parseInt(args[5]), args[6]);
        } else {
            throw new IllegalArgumentException("mode: tokens or rank");
        }
    }

    static String unescape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                b.append(n == 'n' ? '\n' : n == 't' ? '\t' : n);
            } else b.append(c);
        }
        return b.toString();
    }

    static void rank(Analyzer analyzer, String sections, String queries, int k, String out) throws Exception {
        ByteBuffersDirectory dir = new ByteBuffersDirectory();
        IndexWriterConfig iwc = new IndexWriterConfig(analyzer);
        iwc.setRAMBufferSizeMB(256);
        try (IndexWriter w = new IndexWriter(dir, iwc);
             BufferedReader r = Files.newBufferedReader(Paths.get(sections), StandardCharsets.UTF_8)) {
            String line;
            while ((line = r.readLine()) != null) {
                String[] f = line.split("\t", -1);
                Document d = new Document();
                d.add(new StoredField("id", f[0]));
                d.add(new TextField("heading", unescape(f[1]), Field.Store.NO));
                d.add(new TextField("body", unescape(f[2]), Field.Store.NO));
                d.add(new StringField("scope", f[3], Field.Store.NO));
                w.addDocument(d);
            }
            w.forceMerge(1);
        }
        IndexSearcher searcher = new IndexSearcher(DirectoryReader.open(dir));
        try (BufferedReader r = Files.newBufferedReader(Paths.get(queries), StandardCharsets.UTF_8);
             Writer w = Files.newBufferedWriter(Paths.get(out), StandardCharsets.UTF_8)) {
            String line;
            while ((line = r.readLine()) != null) {
                Query q = toQuery(new Json(line).value());
                List<String> row = new ArrayList<>();
                for (ScoreDoc sd : searcher.search(q, k).scoreDocs)
                    row.add(searcher.doc(sd.doc).get("id") + " " + sd.score);
                w.write(String.join("\t", row) + "\n");
            }
        }
    }

    // -- the query DSL subset that qmem compiles --------------------------------------
    @SuppressWarnings("unchecked")
    static Query toQuery(Object node) {
        Map<String, Object> m = (Map<String, Object>) node;
        if (m.size() != 1) throw new IllegalArgumentException("one query per object: " + m.keySet());
        String kind = m.keySet().iterator().next();
        Map<String, Object> body = (Map<String, Object>) m.get(kind);
        float boost = 1f;
        Query q;
        switch (kind) {
            case "bool": {
                BooleanQuery.Builder b = new BooleanQuery.Builder();
                String[] parts = {"must", "should", "must_not", "filter"};
                BooleanClause.Occur[] occurs = {BooleanClause.Occur.MUST, BooleanClause.Occur.SHOULD,
                        BooleanClause.Occur.MUST_NOT, BooleanClause.Occur.FILTER};
                for (int i = 0; i < parts.length; i++)
                    for (Object c : (List<Object>) body.getOrDefault(parts[i], List.of()))
                        b.add(toQuery(c), occurs[i]);
                if (body.containsKey("minimum_should_match"))
                    b.setMinimumNumberShouldMatch(((Number) body.get("minimum_should_match")).intValue());
                if (body.containsKey("boost")) boost = ((Number) body.get("boost")).floatValue();
                q = b.build();
                break;
            }
            case "match_all":
                q = new MatchAllDocsQuery();
                break;
            case "term": {
                String field = body.keySet().iterator().next();
                Map<String, Object> t = (Map<String, Object>) body.get(field);
                if (t.containsKey("boost")) boost = ((Number) t.get("boost")).floatValue();
                q = new TermQuery(new Term(field, (String) t.get("value")));
                break;
            }
            case "match_phrase": {
                String field = body.keySet().iterator().next();
                Map<String, Object> t = (Map<String, Object>) body.get(field);
                if (!"whitespace".equals(t.get("analyzer"))) throw new IllegalArgumentException("phrase analyzer");
                if (t.containsKey("boost")) boost = ((Number) t.get("boost")).floatValue();
                PhraseQuery.Builder b = new PhraseQuery.Builder();
                for (String tok : ((String) t.get("query")).split(" ")) b.add(new Term(field, tok));
                q = b.build();
                break;
            }
            case "terms": {
                String field = body.keySet().iterator().next();
                List<BytesRef> values = new ArrayList<>();
                for (Object v : (List<Object>) body.get(field)) values.add(new BytesRef((String) v));
                q = new TermInSetQuery(field, values);
                break;
            }
            default:
                throw new IllegalArgumentException("unsupported query " + kind);
        }
        return boost == 1f ? q : new BoostQuery(q, boost);
    }

    // -- a minimal JSON reader (objects, arrays, strings, numbers, true/false/null) --------
    static final class Json {
        final String s;
        int i;

        Json(String s) { this.s = s; }

        Object value() {
            ws();
            char c = s.charAt(i);
            if (c == '{') {
                Map<String, Object> m = new LinkedHashMap<>();
                i++; ws();
                if (s.charAt(i) == '}') { i++; return m; }
                while (true) {
                    ws(); String key = string(); ws(); i++; // ':'
                    m.put(key, value()); ws();
                    if (s.charAt(i++) == '}') return m;
                }
            }
            if (c == '[') {
                List<Object> l = new ArrayList<>();
                i++; ws();
                if (s.charAt(i) == ']') { i++; return l; }
                while (true) {
                    l.add(value()); ws();
                    if (s.charAt(i++) == ']') return l;
                }
            }
            if (c == '"') return string();
            if (s.startsWith("true", i)) { i += 4; return Boolean.TRUE; }
            if (s.startsWith("false", i)) { i += 5; return Boolean.FALSE; }
            if (s.startsWith("null", i)) { i += 4; return null; }
            int start = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
            return Double.parseDouble(s.substring(start, i));
        }

        String string() {
            StringBuilder b = new StringBuilder();
            i++; // opening quote
            while (true) {
                char c = s.charAt(i++);
                if (c == '"') return b.toString();
                if (c != '\\') { b.append(c); continue; }
                char e = s.charAt(i++);
                switch (e) {
                    case 'n': b.append('\n'); break;
                    case 't': b.append('\t'); break;
                    case 'r': b.append('\r'); break;
                    case 'b': b.append('\b'); break;
                    case 'f': b.append('\f'); break;
                    case 'u': b.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; break;
                    default: b.append(e);
                }
            }
        }

        void ws() { while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++; }
    }
}
