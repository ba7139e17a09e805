/* order-check.sql
   Rows returned = integrity problems in processed, per order_no:
     kind = 'duplicate-seq' : the same seq recorded more than once
     kind = 'missing-seq'   : a gap between two consecutive recorded seqs
   An empty result means the ordering is clean. */
SELECT order_no, seq, 'duplicate-seq' AS kind, COUNT(*) AS detail
  FROM processed
 GROUP BY order_no, seq
HAVING COUNT(*) > 1
UNION ALL
SELECT order_no, prev_seq + 1, 'missing-seq', seq - prev_seq - 1
  FROM (SELECT order_no, seq,
               LAG(seq) OVER (PARTITION BY order_no ORDER BY seq) AS prev_seq
          FROM processed) AS w
 WHERE prev_seq IS NOT NULL
   AND seq - prev_seq > 1
 ORDER BY 1, 2;
