-- Anomalies in the per-order sequence: duplicated seq or a gap between MIN(seq) and MAX(seq).
SELECT order_no, 'DUPLICATE_SEQ' AS anomaly
  FROM processed
 GROUP BY order_no
HAVING COUNT(*) > COUNT(DISTINCT seq)
UNION ALL
SELECT order_no, 'MISSING_SEQ' AS anomaly
  FROM processed
 GROUP BY order_no
HAVING MAX(seq) - MIN(seq) + 1 > COUNT(DISTINCT seq);
