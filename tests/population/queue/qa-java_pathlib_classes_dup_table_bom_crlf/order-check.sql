-- Order integrity check on processed.
-- Reports, per order_no, a DUPLICATE_SEQ when a seq occurs more than once and a MISSING_SEQ when
-- the seq values between MIN(seq) and MAX(seq) are not all present. No rows = consistent.
WITH order_stats AS (
    SELECT order_no,
           MIN(seq)            AS min_seq,
           MAX(seq)            AS max_seq,
           COUNT(*)            AS row_count,
           COUNT(DISTINCT seq) AS distinct_seq
      FROM processed
     GROUP BY order_no
)
SELECT order_no, 'DUPLICATE_SEQ' AS issue, row_count - distinct_seq AS how_many
  FROM order_stats
 WHERE row_count <> distinct_seq
UNION ALL
SELECT order_no, 'MISSING_SEQ' AS issue, (max_seq - min_seq + 1) - distinct_seq AS how_many
  FROM order_stats
 WHERE max_seq - min_seq + 1 <> distinct_seq
 ORDER BY order_no, issue;
