-- order-check.sql: seq problems within an order_no. No rows = OK.
-- 1) the same seq twice in one order
SELECT order_no, seq, 'duplicate' AS problem
  FROM processed
 GROUP BY order_no, seq
HAVING COUNT(*) > 1
UNION ALL
-- 2) a gap: between seq and the next higher seq of the same order something is missing
SELECT cur.order_no, cur.seq, 'gap after' AS problem
  FROM processed AS cur
 WHERE EXISTS (SELECT 1 FROM processed AS hi
                WHERE hi.order_no = cur.order_no AND hi.seq > cur.seq)
   AND NOT EXISTS (SELECT 1 FROM processed AS nxt
                    WHERE nxt.order_no = cur.order_no AND nxt.seq = cur.seq + 1)
UNION ALL
-- 3) no seq at all
SELECT order_no, seq, 'empty seq' AS problem
  FROM processed
 WHERE seq IS NULL OR TRIM(seq) = '';
