-- Reserved for the promo codes branch (issue 17), which owns version 13.
-- This placeholder only keeps the delivery branch's 0014 applicable on its
-- own; drop it when the promo branch's 0013 is merged.
SELECT 1;
