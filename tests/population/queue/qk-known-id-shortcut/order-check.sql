-- order-check.sql : one row per sequence problem inside an order_no
-- (a) seq used by more than one message of the order
SELECT order_no, seq AS at_seq, COUNT(*) AS n, 'duplicate' AS kind
  FROM processed
 GROUP BY order_no, seq
HAVING COUNT(*) > 1
UNION ALL
-- (b) seq followed by a gap: the next larger seq of the order is more than 1 away
SELECT p.order_no, p.seq, nxt - p.seq - 1, 'gap'
  FROM (SELECT order_no, seq,
               (SELECT MIN(q.seq) FROM processed q WHERE q.order_no = o.order_no AND q.seq > o.seq) AS nxt
          FROM processed o) AS p
 WHERE nxt IS NOT NULL AND nxt > p.seq + 1;
