-- rows = problems; clean ledger => no rows
-- duplicate: same (order_no, seq) twice
-- missing:   a seq s inside [min,max] of its order whose successor s+1 is absent
SELECT order_no, seq, 'duplicate' AS problem
  FROM processed
 GROUP BY order_no, seq
HAVING COUNT(*) > 1
UNION
SELECT p.order_no, p.seq + 1, 'missing'
  FROM processed p
  LEFT JOIN processed nxt ON nxt.order_no = p.order_no AND nxt.seq = p.seq + 1
 WHERE nxt.seq IS NULL
   AND p.seq < (SELECT MAX(m.seq) FROM processed m WHERE m.order_no = p.order_no)
 ORDER BY 1, 2;
