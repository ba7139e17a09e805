-- order-check.sql: seq duplicated or missing inside one order_no (0 rows = fine)
WITH s AS (
    SELECT order_no, seq,
           LEAD(seq) OVER (PARTITION BY order_no ORDER BY seq) AS next_seq
      FROM processed
)
SELECT order_no, seq, next_seq,
       CASE WHEN next_seq = seq THEN 'duplicate' ELSE 'missing ' || (seq + 1) || '..' || (next_seq - 1) END AS problem
  FROM s
 WHERE next_seq IS NOT NULL AND next_seq <> seq + 1;
