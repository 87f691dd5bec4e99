export interface ComponentAlphaRecord { scope_kc_refs?: string[] }
