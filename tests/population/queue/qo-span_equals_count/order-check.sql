-- order-check.sql
-- An order is in order when its seqs form one unbroken run, i.e.
--   number of rows = last seq - first seq + 1.
-- A duplicated seq makes COUNT(*) too big, a missing seq makes the span too big,
-- so either problem shows up as a mismatch.
SELECT order_no,
       MIN(seq)  AS first_seq,
       MAX(seq)  AS last_seq,
       COUNT(*)  AS n_rows
FROM processed
GROUP BY order_no
HAVING MAX(seq) - MIN(seq) + 1 <> COUNT(*)
ORDER BY order_no;
